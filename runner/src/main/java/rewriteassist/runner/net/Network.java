package rewriteassist.runner.net;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.openrewrite.ipc.http.HttpSender;
import org.openrewrite.ipc.http.HttpUrlConnectionSender;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.maven.PomBudget;

/**
 * The runner's HTTP: OpenRewrite's own sender, counted. Recipes and the POM resolver download
 * POMs and version metadata while they run, and on a cold network that is most of a first run's
 * time; the log says how many requests went where and how long they took, so a slow run can be
 * told apart from a slow recipe.
 *
 * <p>Bodies are bounded: a POM, a version list or a checksum larger than {@link #MAX_TEXT_BYTES}
 * (a repository that streams without end, a POM bomb) fails that one download with an error
 * instead of taking the runner's heap; jars are bounded by {@link LocalRepositoryCache#MAX_JAR_BYTES}.
 * A POM whose properties would expand without bound is refused the same way ({@link PomBudget}).
 */
public final class Network implements HttpSender {
    /** One sender for the runner's life: its totals cover every request. */
    public static final Network SENDER = new Network(new HttpUrlConnectionSender());

    /** A request slower than this is logged on its own. */
    private static final long SLOW_NANOS = 2_000_000_000L;

    /** The largest POM, {@code maven-metadata.xml}, Gradle module or checksum file accepted. */
    static final long MAX_TEXT_BYTES = 4L * 1024 * 1024;

    private final HttpSender delegate;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong nanos = new AtomicLong();
    /** Requests and time per host, for the summary line. */
    private final Map<String, long[]> hosts = new TreeMap<>();
    /**
     * URLs whose last answer was 401 or 403, with that status: refused for want of credentials, not
     * missing. The downloaders report such a failure like a missing file; this tells them apart.
     */
    private final Map<String, Integer> denied = new ConcurrentHashMap<>();

    Network(HttpSender delegate) {
        this.delegate = delegate;
    }

    @Override
    public Response send(Request request) {
        long started = System.nanoTime();
        String outcome = "failed";
        try {
            Response response = delegate.send(request);
            outcome = String.valueOf(response.getCode());
            String url = request.getUrl().toString();
            if (response.getCode() == 401 || response.getCode() == 403) {
                denied.put(url, response.getCode());
            } else {
                // An anonymous request is refused first, then the same one with credentials may pass.
                denied.remove(url);
            }
            return bounded(request, response);
        } finally {
            long spent = System.nanoTime() - started;
            requests.incrementAndGet();
            nanos.addAndGet(spent);
            String host = request.getUrl().getHost();
            synchronized (hosts) {
                long[] perHost = hosts.computeIfAbsent(host, h -> new long[2]);
                perHost[0]++;
                perHost[1] += spent;
            }
            if (spent > SLOW_NANOS) {
                Log.log("  slow request (" + seconds(spent) + " s, " + outcome + "): " + request.getUrl());
            }
        }
    }

    /**
     * The status (401 or 403) with which the last request for a URL under {@code prefix} was refused,
     * or 0 when none was.
     */
    public int deniedUnder(String prefix) {
        for (Map.Entry<String, Integer> entry : denied.entrySet()) {
            if (entry.getKey().startsWith(prefix)) {
                return entry.getValue();
            }
        }
        return 0;
    }

    /** The folder of an artifact's files in a repository ({@code https://repo/com/acme/lib/}): a URL prefix. */
    public static String folder(String repository, String group, String artifact) {
        return repository + (repository.endsWith("/") ? "" : "/") + group.replace('.', '/') + "/" + artifact + "/";
    }

    /**
     * The response with its body cut off (as an error) past the limit for its kind of file; a POM
     * is read whole (it is small) and refused, as an error on its body, when it exceeds its
     * {@link PomBudget} on its own.
     */
    private static Response bounded(Request request, Response response) {
        InputStream body = response.getBody();
        if (body == null) {
            return response;
        }
        String url = request.getUrl().toString();
        String path = request.getUrl().getPath();
        long limit = path.endsWith(".jar") ? LocalRepositoryCache.MAX_JAR_BYTES : MAX_TEXT_BYTES;
        InputStream bounded = new Bounded(body, limit, url);
        if (path.endsWith(".pom") && response.isSuccessful()) {
            bounded = checkedPom(bounded, url);
        }
        return new Response(response.getCode(), bounded, response.getHeaders(), response::close);
    }

    /** The POM's bytes, or a stream that fails with why it is refused. */
    private static InputStream checkedPom(InputStream body, String url) {
        byte[] pom;
        try {
            pom = body.readAllBytes();
        } catch (IOException e) {
            return failing(e.getMessage());
        }
        String why = PomBudget.exceeded(pom);
        if (why != null) {
            Log.log("refused the POM " + url + ": " + why);
            return failing(url + ": " + why + ": refused");
        }
        return new ByteArrayInputStream(pom);
    }

    private static InputStream failing(@Nullable String why) {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException(why);
            }
        };
    }

    /** A stream that fails once more than {@code limit} bytes were read from it. */
    static final class Bounded extends FilterInputStream {
        private final long limit;
        private final String what;
        private long read;

        Bounded(InputStream in, long limit, String what) {
            super(in);
            this.limit = limit;
            this.what = what;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b != -1) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) throws IOException {
            read += n;
            if (read > limit) {
                throw new IOException(what + " is larger than " + limit / 1024 / 1024 + " MiB: refused");
            }
        }
    }

    /** The totals since the runner started, e.g. {@code 212 requests in 9.4 s (repo.maven.apache.org 212: 9.4 s)}. */
    public String summary() {
        StringBuilder line = new StringBuilder();
        line.append(requests.get())
                .append(" requests in ")
                .append(seconds(nanos.get()))
                .append(" s");
        synchronized (hosts) {
            if (!hosts.isEmpty()) {
                line.append(" (");
                String separator = "";
                for (Map.Entry<String, long[]> host : hosts.entrySet()) {
                    line.append(separator)
                            .append(host.getKey())
                            .append(' ')
                            .append(host.getValue()[0])
                            .append(": ")
                            .append(seconds(host.getValue()[1]))
                            .append(" s");
                    separator = ", ";
                }
                line.append(')');
            }
        }
        return line.toString();
    }

    private static String seconds(long nanos) {
        return String.format("%.1f", nanos / 1e9);
    }
}
