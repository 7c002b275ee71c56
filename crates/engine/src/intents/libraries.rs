//! Well-known Java libraries by their namespaces and coordinates: what tells a library migration
//! (code moved from one library's namespace to another's: Hamcrest to AssertJ, HttpClient 4 to 5,
//! Guava to the JDK) from a refactoring of the repository's own code. Most specific first: a name
//! belongs to the first library one of whose namespaces it is in.

/// One library.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Library {
    /// As intents name it: "Hamcrest", "Apache HttpClient 5".
    pub name: &'static str,
    /// Packages or types (a name is in one when it is it, or below it).
    pub namespaces: &'static [&'static str],
    /// Maven group ids of its artifacts (exact).
    pub groups: &'static [&'static str],
    /// The word the catalog's recipes about it use ("" when none reliably does).
    pub keyword: &'static str,
}

const fn library(
    name: &'static str,
    namespaces: &'static [&'static str],
    groups: &'static [&'static str],
    keyword: &'static str,
) -> Library {
    Library { name, namespaces, groups, keyword }
}

/// The table; javax -> jakarta and JUnit 4 -> 5 have strategic intents of their own.
pub(crate) const LIBRARIES: &[Library] = &[
    library("JUnit 4 assertions", &["org.junit.Assert", "org.junit.Assume"], &["junit"], "junit"),
    library(
        "JUnit 5 assertions",
        &["org.junit.jupiter.api.Assertions", "org.junit.jupiter.api.Assumptions"],
        &["org.junit.jupiter"],
        "junit",
    ),
    library(
        "JUnit 5",
        &["org.junit.jupiter", "org.junit.platform"],
        &["org.junit.jupiter", "org.junit.platform"],
        "junit",
    ),
    library("JUnit 4", &["org.junit"], &["junit"], "junit"),
    library("Hamcrest", &["org.hamcrest"], &["org.hamcrest"], "hamcrest"),
    library("AssertJ", &["org.assertj"], &["org.assertj"], "assertj"),
    library("TestNG", &["org.testng"], &["org.testng"], "testng"),
    library("Truth", &["com.google.common.truth"], &["com.google.truth"], "truth"),
    library("Apache HttpClient 4", &["org.apache.http"], &["org.apache.httpcomponents"], "httpclient"),
    library(
        "Apache HttpClient 5",
        &["org.apache.hc.client5", "org.apache.hc.core5"],
        &["org.apache.httpcomponents.client5", "org.apache.httpcomponents.core5"],
        "httpclient",
    ),
    library(
        "OkHttp",
        &["okhttp3", "com.squareup.okhttp"],
        &["com.squareup.okhttp3", "com.squareup.okhttp"],
        "okhttp",
    ),
    library("Guava", &["com.google.common"], &["com.google.guava"], "guava"),
    library("Commons Lang 2", &["org.apache.commons.lang"], &["commons-lang"], "lang"),
    library("Commons Lang 3", &["org.apache.commons.lang3"], &["org.apache.commons"], "lang3"),
    library(
        "Commons Collections 3",
        &["org.apache.commons.collections"],
        &["commons-collections"],
        "collections",
    ),
    library(
        "Commons Collections 4",
        &["org.apache.commons.collections4"],
        &["org.apache.commons"],
        "collections4",
    ),
    library("Commons Logging", &["org.apache.commons.logging"], &["commons-logging"], "logging"),
    library("Log4j 1", &["org.apache.log4j"], &["log4j"], "log4j"),
    library("Log4j 2", &["org.apache.logging.log4j"], &["org.apache.logging.log4j"], "log4j"),
    library("SLF4J", &["org.slf4j"], &["org.slf4j"], "slf4j"),
    library("Mockito", &["org.mockito"], &["org.mockito"], "mockito"),
    library("EasyMock", &["org.easymock"], &["org.easymock"], "easymock"),
    library("PowerMock", &["org.powermock"], &["org.powermock"], "powermock"),
    library("JMockit", &["mockit"], &["org.jmockit"], "jmockit"),
    library("Joda-Time", &["org.joda.time"], &["joda-time"], "joda"),
    library("Jackson 1", &["org.codehaus.jackson"], &["org.codehaus.jackson"], "jackson"),
    library("Jackson", &["com.fasterxml.jackson"], &["com.fasterxml.jackson.core"], "jackson"),
    library("Gson", &["com.google.gson"], &["com.google.code.gson"], "gson"),
    library("the JDK", &["java"], &[], ""),
];

/// The library a fully qualified name (package, type, member) is in.
pub(crate) fn of_name(name: &str) -> Option<&'static Library> {
    LIBRARIES.iter().find(|l| l.namespaces.iter().any(|n| within(name, n)))
}

/// The library whose artifacts a Maven group holds.
pub(crate) fn of_group(group: &str) -> Option<&'static Library> {
    LIBRARIES.iter().find(|l| l.groups.contains(&group))
}

/// Whether `name` is `namespace` or below it (`org.apache.commons.lang3` is not below
/// `org.apache.commons.lang`).
fn within(name: &str, namespace: &str) -> bool {
    name == namespace || name.strip_prefix(namespace).is_some_and(|rest| rest.starts_with('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_find_the_most_specific_library() {
        let name = |n: &str| of_name(n).map(|l| l.name);
        assert_eq!(name("org.junit.Assert.assertEquals"), Some("JUnit 4 assertions"));
        assert_eq!(name("org.junit.Test"), Some("JUnit 4"));
        assert_eq!(name("org.junit.jupiter.api.Test"), Some("JUnit 5"));
        assert_eq!(name("org.junit.jupiter.api.Assertions"), Some("JUnit 5 assertions"));
        assert_eq!(name("org.apache.commons.lang3.StringUtils"), Some("Commons Lang 3"));
        assert_eq!(name("org.apache.commons.lang.StringUtils"), Some("Commons Lang 2"));
        assert_eq!(name("java.util.Objects"), Some("the JDK"));
        assert_eq!(name("javafx.scene.Node"), None);
        assert_eq!(name("com.acme.shop.Order"), None);
        assert_eq!(
            of_group("org.apache.httpcomponents.client5").map(|l| l.name),
            Some("Apache HttpClient 5")
        );
    }
}
