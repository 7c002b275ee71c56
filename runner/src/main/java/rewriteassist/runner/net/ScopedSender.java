package rewriteassist.runner.net;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.openrewrite.ipc.http.HttpSender;

/**
 * The runner's HTTP as one parse and its recipe runs use it: {@link Network}'s sender, with every
 * credential held to its {@link CredentialScope}, and none sent before the host asks for it. A
 * request goes out without credentials first; only when the host answers it with a client error
 * (401, 403, or a 404 from a repository that hides what it protects) is it sent again with the
 * credentials that may go there, as Maven's resolver defers them. A host that accepted them once
 * gets them at once afterwards, which is all the callers' own "preemptive" mode asks for.
 */
final class ScopedSender implements HttpSender {
    private final Network network;
    private final CredentialScope scope;
    /** Hosts ({@code host:port}) that accepted credentials after asking for them. */
    private final Set<String> asked = ConcurrentHashMap.newKeySet();

    ScopedSender(Network network, CredentialScope scope) {
        this.network = network;
        this.scope = scope;
    }

    CredentialScope scope() {
        return scope;
    }

    @Override
    public Response send(Request request) {
        CredentialScope.Admitted admitted = scope.admit(request);
        Request authenticated = admitted.withCredentials();
        if (authenticated == null) {
            return network.send(admitted.anonymous());
        }
        String endpoint = request.getUrl().getHost() + ":" + request.getUrl().getPort();
        if (asked.contains(endpoint)) {
            return network.send(authenticated);
        }
        Response anonymous = network.send(admitted.anonymous());
        if (!retriable(request.getMethod()) || anonymous.getCode() < 400 || anonymous.getCode() >= 500) {
            return anonymous;
        }
        anonymous.close();
        Response response = network.send(authenticated);
        if (response.isSuccessful()) {
            asked.add(endpoint);
        }
        return response;
    }

    /** Requests that may be sent twice: they have no body and change nothing. */
    private static boolean retriable(Method method) {
        return method == Method.GET || method == Method.HEAD || method == Method.OPTIONS;
    }
}
