package rewriteassist.runner.gradle;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.openrewrite.ExecutionContext;
import org.openrewrite.maven.MavenDownloadingException;
import org.openrewrite.maven.tree.Dependency;
import org.openrewrite.maven.tree.GroupArtifactVersion;
import org.openrewrite.maven.tree.MavenRepository;
import org.openrewrite.maven.tree.ResolvedDependency;
import org.openrewrite.maven.tree.ResolvedManagedDependency;
import org.openrewrite.maven.tree.ResolvedPom;
import org.openrewrite.maven.tree.Scope;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.net.AccessDenied;
import rewriteassist.runner.openrewrite.PomDownloader;
import rewriteassist.runner.parse.RepositoryParser;

/** Resolves declared dependencies: coordinates, managed versions, and the POMs behind them. */
public final class GradleResolution {
    private final PomDownloader downloader;
    private final List<MavenRepository> repositories;
    private final ExecutionContext ctx;
    private final RepositoryParser.Warnings warnings;
    private final AccessDenied accessDenied;
    private final GradleCatalog catalog;
    private final Map<String, String> variables;
    private final Map<String, String> managed = new HashMap<>();

    GradleResolution(
            PomDownloader downloader,
            List<MavenRepository> repositories,
            ExecutionContext ctx,
            RepositoryParser.Warnings warnings,
            AccessDenied accessDenied,
            GradleCatalog catalog,
            Map<String, String> variables) {
        this.downloader = downloader;
        this.repositories = repositories;
        this.ctx = ctx;
        this.warnings = warnings;
        this.accessDenied = accessDenied;
        this.catalog = catalog;
        this.variables = variables;
    }

    /**
     * Versions the build manages: the BOMs of declared platforms, and Spring Boot's when its
     * plugin is applied (its dependency management imports {@code spring-boot-dependencies}).
     */
    void managedBy(
            List<GradleScript.Plugin> plugins,
            Map<String, String> pluginVersions,
            List<GradleScript.Declared> declared) {
        List<GroupArtifactVersion> boms = new ArrayList<>();
        for (GradleScript.Declared dependency : declared) {
            if (dependency.platform()) {
                coordinates(dependency, pluginVersions)
                        .filter(g -> g.getVersion() != null)
                        .ifPresent(boms::add);
            }
        }
        boolean boot = plugins.stream().anyMatch(p -> p.id().equals("org.springframework.boot"));
        String bootVersion = pluginVersions.getOrDefault("org.springframework.boot", "");
        if (boot && !bootVersion.isEmpty()) {
            boms.add(new GroupArtifactVersion("org.springframework.boot", "spring-boot-dependencies", bootVersion));
        }
        for (GroupArtifactVersion bom : boms) {
            try {
                ResolvedPom pom = downloader.resolve(downloader.download(bom, repositories), repositories, ctx);
                for (ResolvedManagedDependency managedDependency : pom.getDependencyManagement()) {
                    managed.putIfAbsent(
                            managedDependency.getGroupId() + ":" + managedDependency.getArtifactId(),
                            managedDependency.getVersion());
                }
            } catch (MavenDownloadingException | RuntimeException e) {
                accessDenied.take(e);
                warnings.add("gradle: the versions " + bom + " manages are unknown: " + Log.oneLine(e));
            }
        }
    }

    /** The coordinates a declaration names, its version filled in; empty when unknown. */
    Optional<GroupArtifactVersion> coordinates(GradleScript.Declared dependency, Map<String, String> pluginVersions) {
        String group = dependency.group();
        String artifact = dependency.artifact();
        String version = dependency.version();
        if (!dependency.catalogAlias().isEmpty()) {
            Optional<GradleCatalog.Entry> entry = catalog.library(dependency.catalogAlias());
            if (entry.isEmpty()) {
                warnings.add("gradle: libs." + dependency.catalogAlias() + " is not in gradle/libs.versions.toml");
                return Optional.empty();
            }
            group = entry.get().group();
            artifact = entry.get().artifact();
            version = entry.get().version();
        }
        Optional<String> filled = GradleValues.interpolated(version, variables);
        if (filled.isEmpty()) {
            warnings.add("gradle: the version of " + group + ":" + artifact + " (" + version + ") is computed by "
                    + "the script: not known statically");
            return Optional.empty();
        }
        version = filled.get();
        if (version.isEmpty()) {
            version = managed.getOrDefault(group + ":" + artifact, "");
        }
        if (version.isEmpty() && group.equals("org.jetbrains.kotlin")) {
            version = pluginVersions.getOrDefault("org.jetbrains.kotlin.jvm", "");
        }
        if (version.isEmpty()) {
            warnings.add("gradle: no version known for " + group + ":" + artifact);
            return Optional.empty();
        }
        return Optional.of(new GroupArtifactVersion(group, artifact, version));
    }

    /** What a list of declarations requests and resolves, by configuration. */
    record Resolved(
            Map<String, List<Dependency>> requested, Map<String, List<ResolvedDependency>> resolved, int unresolved) {}

    /**
     * The declarations' requests and resolutions (project dependencies left out); {@code
     * unresolved} counts the declarations whose coordinates or POM are unknown.
     */
    Resolved resolveAll(List<GradleScript.Declared> declared, Map<String, String> pluginVersions) {
        Map<String, List<Dependency>> requested = new LinkedHashMap<>();
        Map<String, List<ResolvedDependency>> resolved = new LinkedHashMap<>();
        int unresolved = 0;
        for (GradleScript.Declared dependency : declared) {
            if (!dependency.project().isEmpty()) {
                continue;
            }
            Optional<GroupArtifactVersion> gav = coordinates(dependency, pluginVersions);
            if (gav.isEmpty()) {
                unresolved++;
                continue;
            }
            Dependency request = Dependency.builder()
                    .gav(gav.get())
                    .type(dependency.platform() ? "pom" : "jar")
                    .scope(dependency.configuration())
                    .build();
            requested
                    .computeIfAbsent(dependency.configuration(), k -> new ArrayList<>())
                    .add(request);
            Optional<ResolvedDependency> found = resolve(request);
            if (found.isPresent()) {
                resolved.computeIfAbsent(dependency.configuration(), k -> new ArrayList<>())
                        .add(found.get());
            } else {
                unresolved++;
            }
        }
        return new Resolved(requested, resolved, unresolved);
    }

    Optional<ResolvedDependency> resolve(Dependency request) {
        try {
            ResolvedPom pom =
                    downloader.resolve(downloader.download(request.getGav(), repositories), repositories, ctx);
            List<ResolvedDependency> transitive =
                    request.getType().equals("pom") ? List.of() : downloader.dependencies(pom, Scope.Runtime, ctx);
            return Optional.of(ResolvedDependency.builder()
                    .repository(pom.getRepositories().isEmpty() ? MavenRepository.MAVEN_CENTRAL : repositoryOf(pom))
                    .gav(pom.getGav())
                    .requested(request)
                    .dependencies(transitive)
                    .licenses(List.of())
                    .type(request.getType())
                    .depth(0)
                    .build());
        } catch (Exception e) {
            accessDenied.take(e);
            warnings.add("gradle: " + request.getGav() + " not resolved: " + Log.oneLine(e));
            return Optional.empty();
        }
    }

    private MavenRepository repositoryOf(ResolvedPom pom) {
        String repository = pom.getGav().getRepository();
        return repositories.stream()
                .filter(r -> r.getUri().equals(repository))
                .findFirst()
                .orElse(MavenRepository.MAVEN_CENTRAL);
    }
}
