package rewriteassist.runner.maven;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import org.openrewrite.ExecutionContext;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.maven.MavenExecutionContextView;
import org.openrewrite.maven.tree.Dependency;
import org.openrewrite.maven.tree.GroupArtifactVersion;
import org.openrewrite.maven.tree.ManagedDependency;
import org.openrewrite.maven.tree.MavenRepository;
import org.openrewrite.maven.tree.Pom;
import org.openrewrite.maven.tree.ResolutionEventListener;
import org.openrewrite.maven.tree.ResolvedDependency;
import org.openrewrite.maven.tree.ResolvedPom;
import org.openrewrite.maven.tree.Scope;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.net.FoundOnlyPomCache;
import rewriteassist.runner.net.GuardedPomCache;
import rewriteassist.runner.net.Network;
import rewriteassist.runner.openrewrite.PomDownloader;

/**
 * Downloads, in parallel and ahead of time, the POMs a Maven resolution is about to ask for one
 * by one. rewrite-maven resolves a dependency graph breadth first with one request at a time; on
 * a cold cache a recipe that changes a parent (a Spring Boot upgrade) re-resolves the whole graph
 * at new versions, hundreds of sequential requests that are most of a first run's time.
 *
 * <p>It listens to the resolution ({@link ResolutionEventListener}) and, at two points, pauses
 * it while a bounded pool ({@link #THREADS}) fills the POM cache: when a parent POM is read, its
 * imported BOMs (and theirs); when a project's dependency management is known (its first direct
 * dependency), its dependency graph level by level, with versions as the project manages them.
 * The walk is a guess (exclusions and version ranges are left to the real resolution), so it may
 * fetch a POM the resolution will not use, never miss one it needs: the resolution still asks for
 * everything itself, and now mostly finds it in the cache.
 *
 * <p>Every download goes through a context configured like the resolution's own (the same
 * {@link GuardedPomCache}, {@link Network} with its size cap and {@link PomBudget}, the user's
 * settings), so a POM refused there is refused here the same way; failures are not reported from
 * here, since the real resolution meets and reports them again.
 */
public final class Prefetcher implements ResolutionEventListener {
    /** How many downloads at once: enough to hide latency, few enough to stay polite to a repository. */
    static final int THREADS = 8;

    /** The most POMs one walk downloads, so a hostile graph cannot make it endless. */
    private static final int MAX_POMS = 3000;

    private static volatile int threads = THREADS;
    private static final ExecutorService POOL = Executors.newFixedThreadPool(THREADS, task -> {
        Thread thread = new Thread(task, "pom-prefetch");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * Every POM fetched so far, by coordinates: the resolution runs again for each recipe run
     * (Reactor.withFreshResolutions), and a POM walked once needs no second walk.
     */
    private static final Set<String> DONE = ConcurrentHashMap.newKeySet();

    private final UnaryOperator<ExecutionContext> configure;
    /** The projects whose graphs were walked: once each, a project resolves once per scope. */
    private final Set<ResolvedPom> walked = Collections.newSetFromMap(new IdentityHashMap<>());

    private ExecutionContext quiet;

    /** {@code configure} sets up a fresh context as the resolution's is (settings, caches, sender). */
    Prefetcher(UnaryOperator<ExecutionContext> configure) {
        this.configure = configure;
    }

    /** Sets how many downloads run at once; 1 or less turns prefetching off (the tests compare both). */
    static void threads(int count) {
        threads = Math.min(Math.max(count, 1), THREADS);
    }

    @Override
    public void parent(Pom parent, Pom containing) {
        if (threads > 1 && !parent.getDependencyManagement().isEmpty()) {
            List<Wanted> boms = imports(parent);
            if (!boms.isEmpty()) {
                fetchAll(boms);
            }
        }
    }

    @Override
    public void dependency(Scope scope, ResolvedDependency dependency, ResolvedPom containing) {
        if (threads > 1 && dependency.getDepth() == 0 && remember(containing)) {
            new Walk(containing).run();
        }
    }

    private synchronized boolean remember(ResolvedPom project) {
        return walked.add(project);
    }

    /** A POM to fetch: its coordinates and where to look. */
    record Wanted(GroupArtifactVersion gav, List<MavenRepository> repositories) {}

    /** The BOMs a POM imports whose versions its own properties give. */
    private static List<Wanted> imports(Pom pom) {
        List<Wanted> boms = new ArrayList<>();
        for (ManagedDependency managed : pom.getDependencyManagement()) {
            if (managed instanceof ManagedDependency.Imported) {
                String version = interpolate(managed.getVersion(), pom.getProperties());
                if (concrete(version) && firstTime(managed.getGroupId(), managed.getArtifactId(), version)) {
                    GroupArtifactVersion gav =
                            new GroupArtifactVersion(managed.getGroupId(), managed.getArtifactId(), version);
                    boms.add(new Wanted(gav, repositories(pom.getRepositories())));
                }
            }
        }
        return boms;
    }

    private static boolean firstTime(String group, String artifact, String version) {
        return DONE.add(group + ":" + artifact + ":" + version);
    }

    private static String interpolate(String value, Map<String, String> properties) {
        if (value != null && value.startsWith("${") && value.endsWith("}")) {
            return properties.get(value.substring(2, value.length() - 1));
        }
        return value;
    }

    /** A version the walk can ask for: no placeholder left, not a range. */
    static boolean concrete(String version) {
        return version != null
                && !version.isBlank()
                && !version.contains("${")
                && !version.startsWith("[")
                && !version.startsWith("(");
    }

    private static List<MavenRepository> repositories(List<MavenRepository> declared) {
        List<MavenRepository> all = new ArrayList<>(declared);
        if (all.stream().noneMatch(r -> MavenRepository.MAVEN_CENTRAL.getUri().equals(r.getUri()))) {
            all.add(MavenRepository.MAVEN_CENTRAL); // as the resolution adds it
        }
        return all;
    }

    /** Fetches every POM (and its parents and imports) at once on the pool; the resolved POMs, or null each. */
    List<ResolvedPom> fetchAll(List<Wanted> wanted) {
        ExecutionContext ctx = quietContext();
        List<Callable<ResolvedPom>> tasks = new ArrayList<>();
        for (Wanted one : wanted) {
            tasks.add(() -> fetch(one, ctx));
        }
        List<ResolvedPom> resolved = new ArrayList<>();
        try {
            for (Future<ResolvedPom> done : POOL.invokeAll(tasks.subList(0, Math.min(tasks.size(), MAX_POMS)))) {
                resolved.add(outcome(done));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return resolved;
    }

    private static ResolvedPom outcome(Future<ResolvedPom> done) throws InterruptedException {
        try {
            return done.get();
        } catch (ExecutionException e) {
            return null; // the real resolution meets this failure again and reports it
        }
    }

    private static ResolvedPom fetch(Wanted wanted, ExecutionContext ctx) throws Exception {
        PomDownloader downloader = PomDownloader.withSettings(ctx);
        Pom pom = downloader.download(wanted.gav(), wanted.repositories());
        return downloader.resolve(
                ResolvedPom.builder()
                        .requested(pom)
                        .initialRepositories(wanted.repositories())
                        .build(),
                ctx);
    }

    /** A context like the resolution's whose failures go nowhere and which does not prefetch itself. */
    private synchronized ExecutionContext quietContext() {
        if (quiet == null) {
            quiet = configure.apply(new InMemoryExecutionContext(t -> {}));
            MavenExecutionContextView maven = MavenExecutionContextView.view(quiet);
            maven.setResolutionListener(ResolutionEventListener.NOOP);
            maven.setPomCache(new FoundOnlyPomCache(maven.getPomCache()));
        }
        return quiet;
    }

    /** One project's dependency graph, breadth first like the resolution, a level at a time. */
    private final class Walk {
        private final ResolvedPom project;
        private final Set<String> seen = new HashSet<>();
        private int fetched;

        Walk(ResolvedPom project) {
            this.project = project;
        }

        void run() {
            long started = System.nanoTime();
            List<Wanted> level = new ArrayList<>();
            for (Dependency direct : project.getRequestedDependencies()) {
                add(level, direct, project, true);
            }
            while (!level.isEmpty() && fetched < MAX_POMS) {
                fetched += level.size();
                List<Wanted> next = new ArrayList<>();
                for (ResolvedPom pom : fetchAll(level)) {
                    if (pom != null) {
                        for (Dependency transitive : pom.getRequestedDependencies()) {
                            add(next, transitive, pom, false);
                        }
                    }
                }
                level = next;
            }
            if (fetched == 0) {
                return; // a resolution again, of a graph walked before
            }
            Log.log("  prefetched " + fetched + " POMs of " + project.getGroupId() + ":" + project.getArtifactId()
                    + "'s dependencies in " + Log.seconds(started) + " s");
        }

        /** Adds a dependency the resolution will ask for, at the version the project manages or its declarer gives. */
        private void add(List<Wanted> level, Dependency dependency, ResolvedPom declarer, boolean direct) {
            String group = declarer.getValue(dependency.getGroupId());
            String artifact = declarer.getValue(dependency.getArtifactId());
            String type = declarer.getValue(dependency.getType());
            String classifier = declarer.getValue(dependency.getClassifier());
            String scope = declarer.getValue(dependency.getScope());
            String optional = declarer.getValue(dependency.getOptional());
            if (group == null || artifact == null) {
                return;
            }
            boolean onClasspath = scope == null || scope.equals("compile") || scope.equals("runtime");
            if (!direct && (!onClasspath || Boolean.parseBoolean(optional == null ? "" : optional.trim()))) {
                return; // not transitive in Maven
            }
            String version = project.getManagedVersion(group, artifact, type, classifier);
            if (version == null || (direct && dependency.getVersion() != null)) {
                String declared = declarer.getValue(dependency.getVersion());
                version = declared != null ? declared : declarer.getManagedVersion(group, artifact, type, classifier);
            }
            if (concrete(version) && seen.add(group + ":" + artifact) && firstTime(group, artifact, version)) {
                level.add(new Wanted(
                        new GroupArtifactVersion(group, artifact, version), repositories(project.getRepositories())));
            }
        }
    }
}
