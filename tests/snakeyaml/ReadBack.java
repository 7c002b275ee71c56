import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Reads each file given with SnakeYAML as OpenRewrite's YamlResourceLoader does, and prints every
 * document as one line of ASCII JSON. Values only YAML 1.1 has (dates, binary) and non-string keys
 * come out tagged, so the Rust side sees a difference instead of a lookalike string.
 */
public class ReadBack {
    public static void main(String[] args) throws Exception {
        for (String file : args) {
            String text = Files.readString(Path.of(file), StandardCharsets.UTF_8);
            Yaml yaml = new Yaml(new SafeConstructor(new LoaderOptions()));
            for (Object document : yaml.loadAll(text)) {
                StringBuilder out = new StringBuilder();
                json(document, out);
                System.out.println(out);
            }
        }
    }

    private static void json(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String s) {
            string(s, out);
        } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long) {
            out.append(value);
        } else if (value instanceof Double d && Double.isFinite(d)) {
            out.append(d);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!first) out.append(',');
                first = false;
                Object key = entry.getKey();
                string(key instanceof String s ? s : "$" + key.getClass().getSimpleName() + ":" + key, out);
                out.append(':');
                json(entry.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) out.append(',');
                json(list.get(i), out);
            }
            out.append(']');
        } else if (value instanceof byte[] bytes) {
            string("$binary:" + Base64.getEncoder().encodeToString(bytes), out);
        } else if (value instanceof Date date) {
            string("$Date:" + date.getTime(), out);
        } else {
            string("$" + value.getClass().getSimpleName() + ":" + value, out);
        }
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }
}
