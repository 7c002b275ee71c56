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

/// The PR's swap of `javax.persistence-api` 2.2 for `jakarta.persistence-api` 3.1.0 in the POM.
pub const JAKARTA_DEPENDENCY: &[(&str, &str)] = &[(
    "      <groupId>javax.persistence</groupId>
      <artifactId>javax.persistence-api</artifactId>
      <version>2.2</version>",
    "      <groupId>jakarta.persistence</groupId>
      <artifactId>jakarta.persistence-api</artifactId>
      <version>3.1.0</version>",
)];

/// The base POM: Java 11, `javax.persistence-api`.
pub const JPA_POM_JAVAX: &str = include_str!("files/before/pom.xml");

/// The base's `Customer` entity, on `javax.persistence`.
pub const CUSTOMER_JAVAX: &str = include_str!("files/before/src/main/java/com/acme/shop/Customer.java");

/// The base's `Order` entity, on `javax.persistence`.
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

/// The base's `CustomerTest` (JUnit 4), unchanged by the PR.
pub const CUSTOMER_TEST: &str = include_str!("files/before/src/test/java/com/acme/shop/CustomerTest.java");

/// The PR's move of the compiler source and target from 11 to 17 in the POM.
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

/// The PR's `setup-java` version change in the CI workflow.
pub const CI_JAVA_17: &[(&str, &str)] = &[("java-version: '11'", "java-version: '17'")];

/// The PR's Docker base image change from JRE 11 to 17.
pub const DOCKER_JAVA_17: &[(&str, &str)] = &[("FROM eclipse-temurin:11-jre", "FROM eclipse-temurin:17-jre")];

/// The base's GitHub Actions workflow, on Java 11.
pub const CI_JAVA11: &str = include_str!("files/before/.github/workflows/ci.yml");

/// The base's Dockerfile, on `eclipse-temurin:11-jre`.
pub const DOCKERFILE_JAVA11: &str = include_str!("files/before/Dockerfile");
