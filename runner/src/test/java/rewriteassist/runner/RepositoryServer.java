package rewriteassist.runner;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server on loopback for the tests: serves files by path (a Maven repository, a DTD)
 * and records every request it receives, so a test can check what the runner asked for, or that
 * it asked for nothing at all. Written on plain sockets so that a TLS handshake (rewrite-maven
 * tries {@code https://} first for every {@code http://} repository) is refused at once by closing
 * the connection, as a server without TLS on that port would, instead of leaving the client
 * waiting for an answer.
 *
 * <p>With {@link #requireCredentials} it is a private repository: every request without that user
 * and password (HTTP basic authentication) gets 401, as Nexus or Artifactory answer.
 */
public final class RepositoryServer implements AutoCloseable {
    private final ServerSocket socket;
    private final Map<String, byte[]> files = new ConcurrentHashMap<>();
    private final List<String> requests = Collections.synchronizedList(new ArrayList<>());
    /** Every request, and the Authorization header it carried ("-" for none). */
    private final List<String> credentials = Collections.synchronizedList(new ArrayList<>());

    private final Thread acceptor;
    /** The {@code Authorization} header a request must carry; null: none needed. */
    private volatile String authorization;
    /** Which paths need it, by their end ("": all). */
    private volatile String protectedSuffix = "";
    /** How long each POM request takes to answer, as a distant repository's would. */
    private volatile long pomDelayMillis;
    /** POM requests being answered now, and the most there ever were at once. */
    private final AtomicInteger pomsInFlight = new AtomicInteger();

    private final AtomicInteger mostPomsAtOnce = new AtomicInteger();

    public RepositoryServer() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::accept, "repository-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                Thread handler = new Thread(() -> handle(client), "repository-server-connection");
                handler.setDaemon(true);
                handler.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void handle(Socket client) {
        try (client;
                InputStream in = client.getInputStream();
                OutputStream out = client.getOutputStream()) {
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.ISO_8859_1));
            int first = reader.read();
            if (first == 0x16 || first == -1) {
                return; // a TLS ClientHello, or nothing: no TLS here
            }
            String requestLine = (char) first + reader.readLine();
            String line;
            String authorized = null;
            while ((line = reader.readLine()) != null && !line.isEmpty()) {
                if (line.regionMatches(true, 0, "Authorization:", 0, 14)) {
                    authorized = line.substring(14).strip();
                }
            }
            String[] parts = requestLine.split(" ");
            String method = parts[0];
            URI uri = URI.create(parts.length > 1 ? parts[1] : "/");
            String required = uri.getPath().endsWith(protectedSuffix) ? authorization : null;
            boolean allowed = required == null || required.equals(authorized);
            requests.add(method + " " + uri + (required == null ? "" : allowed ? " (authorized)" : " (refused)"));
            credentials.add(method + " " + uri + " Authorization: " + (authorized == null ? "-" : authorized));
            if (uri.getPath().endsWith(".pom")) {
                answerSlowly();
            }
            byte[] body = files.get(uri.getPath());
            boolean root = uri.getPath().equals("/");
            String status = !allowed
                    ? "401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"private\""
                    : body != null && method.equals("GET") ? "200 OK" : root ? "200 OK" : "404 Not Found";
            byte[] payload = allowed && body != null && method.equals("GET") ? body : new byte[0];
            out.write(("HTTP/1.1 " + status + "\r\nContent-Length: " + payload.length + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.write(payload);
            out.flush();
        } catch (IOException | RuntimeException e) {
            // The client went away: nothing to answer.
        }
    }

    /** Waits {@link #pomDelayMillis}, counting how many POM requests wait together. */
    private void answerSlowly() {
        mostPomsAtOnce.accumulateAndGet(pomsInFlight.incrementAndGet(), Math::max);
        try {
            Thread.sleep(pomDelayMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            pomsInFlight.decrementAndGet();
        }
    }

    /** From now on, every POM is answered after {@code millis}. */
    public RepositoryServer slowPoms(long millis) {
        pomDelayMillis = millis;
        return this;
    }

    /** The most POM requests this server was answering at the same time. */
    public int mostPomsAtOnce() {
        return mostPomsAtOnce.get();
    }

    /** The server's base URL, with a trailing slash. */
    public String url() {
        return "http://127.0.0.1:" + socket.getLocalPort() + "/";
    }

    public RepositoryServer serve(String path, String text) {
        return serve(path, text.getBytes(StandardCharsets.UTF_8));
    }

    public RepositoryServer serve(String path, byte[] bytes) {
        files.put(path, bytes);
        return this;
    }

    /** From now on, every request needs this user and password (HTTP basic authentication). */
    public RepositoryServer requireCredentials(String user, String password) {
        return requireCredentials(user, password, "");
    }

    /** From now on, requests for paths ending with {@code suffix} need this user and password. */
    public RepositoryServer requireCredentials(String user, String password, String suffix) {
        protectedSuffix = suffix;
        authorization =
                "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        return this;
    }

    /**
     * Every request so far, as {@code METHOD /path?query}, followed by {@code (authorized)} or
     * {@code (refused)} once credentials are required.
     */
    public List<String> requests() {
        synchronized (requests) {
            return new ArrayList<>(requests);
        }
    }

    /**
     * Every request so far, as {@code METHOD /path?query Authorization: <header>}, with {@code -}
     * for a request without one: which credentials this host was sent, and when.
     */
    public List<String> credentialsSeen() {
        synchronized (credentials) {
            return new ArrayList<>(credentials);
        }
    }

    /** Whether any request so far carried an Authorization header. */
    public boolean wasSentCredentials() {
        return credentialsSeen().stream().anyMatch(r -> !r.endsWith("Authorization: -"));
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
