# The image `action.yml` runs: the release binary, a JDK (21, which also runs OpenRewrite on
# Java 8–21 projects), Maven and git; a non-root user; the runner built and the Maven and POM
# caches pre-warmed, without the MSAL recipe jars.

FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY crates ./crates
COPY benches ./benches
COPY catalog ./catalog
# The embedded OpenRewrite runner's sources are compiled into the binary (include_dir).
COPY runner/pom.xml ./runner/pom.xml
COPY runner/src/main ./runner/src/main
RUN cargo build --release --locked --bin rewrite-assist

FROM eclipse-temurin:21-jdk-noble
ARG MAVEN_VERSION=3.9.11
ARG MAVEN_SHA512=bcfe4fe305c962ace56ac7b5fc7a08b87d5abd8b7e89027ab251069faebee516b0ded8961445d6d91ec1985dfe30f8153268843c89aa392733d1a3ec956c9978
# A failing command anywhere in a pipe fails the build (the checksum check below is one).
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
# git, CA certificates and curl at the base image's versions: a pinned apt version disappears from
# Ubuntu's archive with the next security update, and the build would break for nothing.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && curl -fsSLo /tmp/maven.tar.gz \
      "https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/${MAVEN_VERSION}/apache-maven-${MAVEN_VERSION}-bin.tar.gz" \
 && echo "${MAVEN_SHA512}  /tmp/maven.tar.gz" | sha512sum -c - \
 && tar -xzf /tmp/maven.tar.gz -C /opt \
 && ln -s "/opt/apache-maven-${MAVEN_VERSION}/bin/mvn" /usr/local/bin/mvn \
 && rm /tmp/maven.tar.gz
COPY --from=build /src/target/release/rewrite-assist /usr/local/bin/rewrite-assist
# What the image holds and under which licences: NOTICE (docs/licensing.md).
COPY LICENSE NOTICE /usr/share/doc/rewrite-assist/

# uid 1001 is the runner user of GitHub-hosted runners; action.yml runs the container with the
# runner's uid, so the cache is made usable by any uid.
RUN useradd --create-home --uid 1001 --shell /usr/sbin/nologin rewrite
# By uid: a name may not resolve where the image runs (DL3066).
USER 1001
ENV HOME=/home/rewrite
# One real analysis of the built-in example (backend auto) builds the embedded runner into
# ~/.cache/rewrite-assist/runner and downloads the pinned rewrite-maven-plugin, the core recipes
# and the modules the example needs. scripts/prewarm-image then fills the runner's POM cache with
# the common parents and BOMs (Spring Boot, Quarkus, Micronaut, Jakarta EE, JUnit) and deletes
# the recipe jars under the Moderne Source Available License and the catalog text the analysis
# read from them, in this same layer so that no layer keeps them: the runner fetches the jars, and
# the catalog reads their text, on the user's machine at first use (docs/licensing.md).
COPY --chmod=755 scripts/prewarm-image /usr/local/bin/prewarm-image
RUN rewrite-assist demo --out /tmp/warm-up >/dev/null && rm -rf /tmp/warm-up \
 && prewarm-image \
 && chmod -R a+rwX /home/rewrite

# OCI labels: where the image comes from and under which licence (rewrite-assist's own; the JDK,
# Maven, git and the OS keep theirs). The release workflow passes the version, commit and
# repository; a local build says `dev`.
ARG VERSION=dev
ARG REVISION=unknown
ARG SOURCE=https://github.com/rewrite-assist/rewrite-assist
LABEL org.opencontainers.image.title="rewrite-assist" \
      org.opencontainers.image.description="Turns a migration pull request into a validated, reusable OpenRewrite recipe: the rewrite-assist GitHub Action and CLI" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}"

ENTRYPOINT ["rewrite-assist", "action"]
