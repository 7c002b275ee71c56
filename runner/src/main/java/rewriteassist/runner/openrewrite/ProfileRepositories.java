package rewriteassist.runner.openrewrite;

import java.util.ArrayList;
import java.util.List;
import org.openrewrite.maven.MavenSettings;
import org.openrewrite.maven.internal.RawRepositories;

/** rewrite-maven's {@code RawRepositories} (internal): the repositories a settings profile declares. */
public final class ProfileRepositories {
    private ProfileRepositories() {}

    /** The URLs of the repositories with this id that {@code profile} declares. */
    public static List<String> urls(MavenSettings.Profile profile, String id) {
        List<String> urls = new ArrayList<>();
        RawRepositories repositories = profile.getRepositories();
        if (repositories == null || repositories.getRepositories() == null) {
            return urls;
        }
        for (RawRepositories.Repository repository : repositories.getRepositories()) {
            if (id.equals(repository.getId()) && repository.getUrl() != null) {
                urls.add(repository.getUrl());
            }
        }
        return urls;
    }
}
