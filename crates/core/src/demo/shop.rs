//! The demo's migration PR: a small Maven shop moved to Java 17 and Jakarta Persistence in one
//! commit. The test fixtures' javax and Java 17 scenarios reuse its files.

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
        FileEdit::Write("src/main/java/com/acme/shop/Order.java", ORDER_JAKARTA),
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
pub const JPA_POM_JAVAX: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>shop</artifactId>
  <version>1.0.0-SNAPSHOT</version>

  <properties>
    <maven.compiler.source>11</maven.compiler.source>
    <maven.compiler.target>11</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>

  <dependencies>
    <dependency>
      <groupId>javax.persistence</groupId>
      <artifactId>javax.persistence-api</artifactId>
      <version>2.2</version>
    </dependency>
    <dependency>
      <groupId>junit</groupId>
      <artifactId>junit</artifactId>
      <version>4.13.2</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
</project>
"#;

/// The base's `Customer` entity, on `javax.persistence`.
pub const CUSTOMER_JAVAX: &str = r#"package com.acme.shop;

import javax.persistence.Column;
import javax.persistence.Entity;
import javax.persistence.GeneratedValue;
import javax.persistence.Id;
import javax.persistence.Table;

@Entity
@Table(name = "customers")
public class Customer {

    @Id
    @GeneratedValue
    private Long id;

    @Column(nullable = false)
    private String name;

    protected Customer() {
    }

    public Customer(String name) {
        this.name = name;
    }

    public Long getId() {
        return id;
    }

    public String getName() {
        return name;
    }
}
"#;

/// The base's `Order` entity, on `javax.persistence`.
pub const ORDER_JAVAX: &str = r#"package com.acme.shop;

import java.math.BigDecimal;
import javax.persistence.Entity;
import javax.persistence.Id;
import javax.persistence.ManyToOne;

@Entity
public class Order {

    @Id
    private Long id;

    @ManyToOne
    private Customer customer;

    private BigDecimal total;

    public BigDecimal getTotal() {
        return total;
    }
}
"#;

/// `Order` after the PR, on `jakarta.persistence`.
pub const ORDER_JAKARTA: &str = r#"package com.acme.shop;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import java.math.BigDecimal;

@Entity
public class Order {

    @Id
    private Long id;

    @ManyToOne
    private Customer customer;

    private BigDecimal total;

    public BigDecimal getTotal() {
        return total;
    }
}
"#;

/// The base's `CustomerTest` (JUnit 4), unchanged by the PR.
pub const CUSTOMER_TEST: &str = r#"package com.acme.shop;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CustomerTest {

    @Test
    public void keepsItsName() {
        assertEquals("Ada", new Customer("Ada").getName());
    }

    @Test
    public void hasNoIdBeforeSaving() {
        assertEquals(null, new Customer("Ada").getId());
    }
}
"#;

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
pub const CI_JAVA11: &str = r#"name: CI

on:
  push:
    branches: [main]
  pull_request:

jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-java@v4
        with:
          distribution: temurin
          java-version: '11'
      - run: mvn -B verify
"#;

/// The base's Dockerfile, on `eclipse-temurin:11-jre`.
pub const DOCKERFILE_JAVA11: &str = r#"FROM eclipse-temurin:11-jre
WORKDIR /app
COPY target/greeter.jar app.jar
ENTRYPOINT ["java", "-jar", "app.jar"]
"#;
