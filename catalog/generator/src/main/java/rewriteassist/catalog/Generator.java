package rewriteassist.catalog;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import org.openrewrite.config.Environment;
import org.openrewrite.config.OptionDescriptor;
import org.openrewrite.config.RecipeDescriptor;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * Writes every recipe OpenRewrite finds on the runtime classpath as one JSON document:
 * {"recipes": [{name, displayName, description, tags, options, members, jar}]}.
 * <p>
 * "jar" is the file name of the jar the recipe came from (a Java recipe's class, a declarative
 * recipe's YAML file); rewrite-assist maps it to the pinned module and its licence. Everything else
 * is taken as OpenRewrite itself describes the recipe, so nothing here is typed by hand.
 */
public final class Generator {
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: Generator OUTPUT.json");
            System.exit(2);
        }
        Path output = Paths.get(args[0]);
        Environment env = Environment.builder().scanRuntimeClasspath().build();
        List<RecipeDescriptor> recipes = new ArrayList<>(env.listRecipeDescriptors());
        recipes.sort(Comparator.comparing(RecipeDescriptor::getName));

        Path parent = output.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (JsonGenerator json = new JsonFactory().createGenerator(output.toFile(), JsonEncoding.UTF8)) {
            json.useDefaultPrettyPrinter();
            json.writeStartObject();
            json.writeArrayFieldStart("recipes");
            for (RecipeDescriptor recipe : recipes) {
                write(json, recipe);
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        System.err.println("catalog generator: " + recipes.size() + " recipes written to " + output);
    }

    private static void write(JsonGenerator json, RecipeDescriptor recipe) throws IOException {
        json.writeStartObject();
        json.writeStringField("name", recipe.getName());
        json.writeStringField("displayName", recipe.getDisplayName());
        json.writeStringField("description", recipe.getDescription());
        writeStrings(json, "tags", new TreeSet<>(recipe.getTags()));
        json.writeArrayFieldStart("options");
        for (OptionDescriptor option : recipe.getOptions()) {
            json.writeStartObject();
            json.writeStringField("name", option.getName());
            json.writeStringField("type", option.getType());
            json.writeBooleanField("required", option.isRequired());
            json.writeStringField("description", option.getDescription());
            json.writeStringField("example", option.getExample());
            writeStrings(json, "valid", option.getValid() == null ? List.of() : option.getValid());
            json.writeEndObject();
        }
        json.writeEndArray();
        List<String> members = new ArrayList<>();
        for (RecipeDescriptor member : recipe.getRecipeList()) {
            members.add(member.getName());
        }
        writeStrings(json, "members", members);
        json.writeStringField("jar", jarOf(recipe));
        json.writeEndObject();
    }

    private static void writeStrings(JsonGenerator json, String field, Collection<String> values) throws IOException {
        json.writeArrayFieldStart(field);
        for (String value : values) {
            json.writeString(value);
        }
        json.writeEndArray();
    }

    /** The file name of the jar a recipe was loaded from, or null when it did not come from a jar. */
    static String jarOf(RecipeDescriptor recipe) {
        URI source = recipe.getSource();
        if (source == null) {
            return null;
        }
        String text = source.toString();
        // jar:file:/repo/rewrite-spring-6.37.0.jar!/META-INF/rewrite/spring.yml
        if (text.startsWith("jar:")) {
            text = text.substring("jar:".length());
        }
        int bang = text.indexOf("!/");
        if (bang >= 0) {
            text = text.substring(0, bang);
        }
        if (!text.endsWith(".jar")) {
            return null;
        }
        String path = URI.create(text).getPath();
        return path == null ? null : new File(path).getName();
    }
}
