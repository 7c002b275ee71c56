//! The demo's migration PR: a small Maven shop moved to Java 17 and Jakarta Persistence in one
//! commit. The test fixtures' javax and Java 17 scenarios reuse its files. The project's texts are
//! files under `files/before/` (the project before the PR), compiled into the binary; the PR's edits
//! are the replacements below.

use super::scenario::{FileEdit, Scenario};

/// The `demo` command's PR: one commit that moves a small service to Java 17 and Jakarta
/// Persistence, as teams do on the way to Spring Boot 3.
pub const DEMO: Scenario = Scenario {
    name: "demo",
    title: "Move to Java 17 and Jakarta Persistence",
    base: &[
        ("pom.xml", JPA_POM_JAVAX),
        (".github/workflows/ci.yml", CI_JAVA11),
        ("Dockerfile", DOCKERFILE_JAVA11),
        ("src/main/java/com/acme/shop/Customer.java", CUSTOMER_JAVAX),
        ("src/main/java/com/acme/shop/Order.java", ORDER_JAVAX),
        ("src/test/java/com/acme/shop/CustomerTest.java", CUSTOMER_TEST),
    ],
    changes: &[
        FileEdit::Edit("pom.xml", JAVA_17_PROPERTIES),
        FileEdit::Edit("pom.xml", JAKARTA_DEPENDENCY),
        FileEdit::Edit(".github/workflows/ci.yml", CI_JAVA_17),
        FileEdit::Edit("Dockerfile", DOCKER_JAVA_17),
        FileEdit::Edit(
            "src/main/java/com/acme/shop/Customer.java",
            &[("javax.persistence", "jakarta.persistence")],
        ),
        FileEdit::Edit("src/main/java/com/acme/shop/Order.java", ORDER_JAKARTA_IMPORTS),
    ],
};

pub const JAKARTA_DEPENDENCY: &[(&str, &str)] = &[(
    "      <groupId>javax.persistence</groupId>
      <artifactId>javax.persistence-api</artifactId>
      <version>2.2</version>",
    "      <groupId>jakarta.persistence</groupId>
      <artifactId>jakarta.persistence-api</artifactId>
      <version>3.1.0</version>",
)];

pub const JPA_POM_JAVAX: &str = include_str!("files/before/pom.xml");

pub const CUSTOMER_JAVAX: &str = include_str!("files/before/src/main/java/com/acme/shop/Customer.java");

pub const ORDER_JAVAX: &str = include_str!("files/before/src/main/java/com/acme/shop/Order.java");

/// `Order`'s imports moved to Jakarta and re-sorted by the IDE: jakarta.* now comes before java.*.
pub const ORDER_JAKARTA_IMPORTS: &[(&str, &str)] = &[(
    "import java.math.BigDecimal;
import javax.persistence.Entity;
import javax.persistence.Id;
import javax.persistence.ManyToOne;
",
    "import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import java.math.BigDecimal;
",
)];

pub const CUSTOMER_TEST: &str = include_str!("files/before/src/test/java/com/acme/shop/CustomerTest.java");

pub const JAVA_17_PROPERTIES: &[(&str, &str)] = &[
    (
        "<maven.compiler.source>11</maven.compiler.source>",
        "<maven.compiler.source>17</maven.compiler.source>",
    ),
    (
        "<maven.compiler.target>11</maven.compiler.target>",
        "<maven.compiler.target>17</maven.compiler.target>",
    ),
];

pub const CI_JAVA_17: &[(&str, &str)] = &[("java-version: '11'", "java-version: '17'")];

pub const DOCKER_JAVA_17: &[(&str, &str)] = &[("FROM eclipse-temurin:11-jre", "FROM eclipse-temurin:17-jre")];

pub const CI_JAVA11: &str = include_str!("files/before/.github/workflows/ci.yml");

pub const DOCKERFILE_JAVA11: &str = include_str!("files/before/Dockerfile");
