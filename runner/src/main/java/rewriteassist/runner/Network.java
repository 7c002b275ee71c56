package rewriteassist.runner;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.openrewrite.ipc.http.HttpSender;
import org.openrewrite.ipc.http.HttpUrlConnectionSender;

/**
 * The runner's HTTP: OpenRewrite's own sender, counted. Recipes and the POM resolver download
 * POMs and version metadata while they run, and on a cold network that is most of a first run's
 * time; the log says how many requests went where and how long they took, so a slow run can be
 * told apart from a slow recipe.
 */
final class Network implements HttpSender {
    /** One sender for the runner's life: its totals cover every request. */
    static final Network SENDER = new Network(new HttpUrlConnectionSender());

    /** A request slower than this is logged on its own. */
    private static final long SLOW_NANOS = 2_000_000_000L;

    private final HttpSender delegate;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong nanos = new AtomicLong();
    /** Requests and time per host, for the summary line. */
    private final Map<String, long[]> hosts = new TreeMap<>();

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
            return response;
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
                Main.log("  slow request (" + seconds(spent) + " s, " + outcome + "): " + request.getUrl());
            }
        }
    }

    /** The totals since the runner started, e.g. {@code 212 requests in 9.4 s (repo.maven.apache.org 212: 9.4 s)}. */
    String summary() {
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
