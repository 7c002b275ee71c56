package rewriteassist.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner on small git repositories of its own: real parsers, real recipes. */
class RunnerTest {
    @TempDir
    Path dir;

    private Path repo(String... pathsAndContents) throws IOException, InterruptedException {
        Path root = dir.resolve("repo");
        Files.createDirectories(root);
        for (int i = 0; i < pathsAndContents.length; i += 2) {
            Path file = root.resolve(pathsAndContents[i]);
            Files.createDirectories(file.getParent());
            Files.writeString(file, pathsAndContents[i + 1]);
        }
        git(root, "init", "-q", ".");
        git(root, "add", "-A");
        git(root, "-c", "user.email=t@example.org", "-c", "user.name=t", "commit", "-q", "-m", "base");
        return root;
    }

    private static void git(Path root, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", root.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).inheritIO().start();
        assertEquals(0, p.waitFor(), String.join(" ", command));
    }

    private JsonNode request(Main main, String json) throws IOException {
        Path request = dir.resolve("request-" + System.nanoTime() + ".json");
        ObjectNode node = (ObjectNode) Main.JSON.readTree(json);
        Path output = dir.resolve(node.path("id").asText() + ".out.json");
        node.put("output", output.toString());
        Files.writeString(request, Main.JSON.writeValueAsString(node));
        main.handle(request);
        return Main.JSON.readTree(output.toFile());
    }

    private JsonNode parse(Main main, Path root) throws IOException {
        return request(
                main,
                "{\"protocol\":1,\"id\":\"parse-1\",\"type\":\"parse\",\"root\":"
                        + Main.JSON.writeValueAsString(root.toString()) + "}");
    }

    private JsonNode run(Main main, String recipeYaml, String name) throws IOException {
        Path recipe = dir.resolve("recipe-" + System.nanoTime() + ".yml");
        Files.writeString(recipe, recipeYaml);
        return request(
                main,
                "{\"protocol\":1,\"id\":\"run-1\",\"type\":\"run\",\"each_step\":true,\"recipe\":\"" + name
                        + "\",\"recipe_files\":[" + Main.JSON.writeValueAsString(recipe.toString()) + "]}");
    }

    private static final String RECIPE = "type: specs.openrewrite.org/v1beta/recipe\n"
            + "name: test.Option\n"
            + "displayName: Option\n"
            + "recipeList:\n"
            + "  - rewriteassist.runner.ThrowingRecipe\n"
            + "  - org.openrewrite.java.ChangeType:\n"
            + "      oldFullyQualifiedTypeName: com.acme.legacy.Old\n"
            + "  - org.openrewrite.java.ChangePackage:\n"
            + "      oldPackageName: com.acme.legacy\n"
            + "      newPackageName: com.acme.modern\n";

    @Test
    void failingStepsAreNamedAndLeftOutTheOthersStillCount() throws Exception {
        Path root = repo(
                "src/main/java/com/acme/legacy/Old.java",
                "package com.acme.legacy;\n\npublic class Old {}\n",
                "src/main/java/com/acme/User.java",
                "package com.acme;\n\nimport com.acme.legacy.Old;\n\npublic class User {\n    Old old;\n}\n",
                "notes.txt",
                "hello\n");
        Main main = Main.forTests();
        JsonNode parsed = parse(main, root);
        assertTrue(parsed.path("ok").asBoolean(), parsed.toString());
        JsonNode results = run(main, RECIPE, "test.Option");
        assertTrue(results.path("ok").asBoolean(), results.toString());
        JsonNode runs = results.path("runs");
        assertEquals(4, runs.size(), results.toString());

        JsonNode thrown = runs.get(0).path("error");
        assertEquals("recipe_error", thrown.path("kind").asText(), results.toString());
        assertTrue(thrown.path("message").asText().contains("ThrowingRecipe"), thrown.toString());
        assertTrue(thrown.path("message").asText().contains("boom"), thrown.toString());

        JsonNode invalid = runs.get(1).path("error");
        assertEquals("invalid_option", invalid.path("kind").asText(), results.toString());
        assertTrue(invalid.path("message").asText().contains("newFullyQualifiedTypeName"), invalid.toString());

        JsonNode changePackage = runs.get(2);
        assertTrue(changePackage.path("error").isNull(), changePackage.toString());
        assertTrue(
                changePackage.path("diff").asText().contains("+import com.acme.modern.Old;"), changePackage.toString());

        JsonNode whole = runs.get(3);
        assertTrue(whole.path("step").isNull());
        assertEquals("[0,1]", whole.path("left_out").toString());
        assertTrue(whole.path("error").isNull(), whole.toString());
        assertTrue(whole.path("diff").asText().contains("+package com.acme.modern;"), whole.toString());
        assertTrue(whole.path("diff").asText().contains("+import com.acme.modern.Old;"), whole.toString());
        assertFalse(whole.path("diff").asText().contains("notes.txt"), whole.toString());
    }

    @Test
    void filesThatDoNotParseStayPlainTextAndMvnConfigIsJustText() throws Exception {
        Path root = repo(
                "src/main/java/Broken.java", "class Broken { void f( { <<<>>> }\n",
                "config/app.yml", "key: [unclosed\n  - : :\n",
                ".mvn/jvm.config", "-javaagent:/nonexistent/agent.jar\n",
                ".mvn/extensions.xml", "<extensions><extension><groupId>x</groupId></extension></extensions>\n",
                "logo.png", "\u0000\u0001binary");
        Main main = Main.forTests();
        JsonNode parsed = parse(main, root);
        assertTrue(parsed.path("ok").asBoolean(), parsed.toString());
        String unparsed = parsed.path("unparsed").toString();
        assertTrue(unparsed.contains("src/main/java/Broken.java"), parsed.toString());
        assertEquals(1, parsed.path("files").path("binary_skipped").asInt(), parsed.toString());
        // Every text file is in the trees, the broken ones as plain text.
        assertEquals(4, parsed.path("files").path("total").asInt(), parsed.toString());
        JsonNode results = run(
                main,
                "type: specs.openrewrite.org/v1beta/recipe\nname: test.Text\ndisplayName: Text\nrecipeList:\n"
                        + "  - org.openrewrite.text.FindAndReplace:\n      find: Broken\n      replace: Fixed\n",
                "test.Text");
        assertTrue(results.path("runs").get(1).path("diff").asText().contains("+class Fixed"), results.toString());
    }

    @Test
    void aRunBeforeAnyParseAndAnUnknownRecipeAreClearFailures() throws Exception {
        Main main = Main.forTests();
        JsonNode early = run(main, RECIPE, "test.Option");
        assertFalse(early.path("ok").asBoolean());
        assertEquals("no_parse", early.path("error").path("kind").asText());
        parse(main, repo("README.md", "hi\n"));
        JsonNode unknown = run(main, RECIPE, "test.Nope");
        assertEquals("unknown_recipe", unknown.path("error").path("kind").asText(), unknown.toString());
        Files.writeString(dir.resolve("bad.yml"), "type: [\n");
        JsonNode bad = request(
                main,
                "{\"protocol\":1,\"id\":\"run-2\",\"type\":\"run\",\"recipe\":\"x\",\"recipe_files\":["
                        + Main.JSON.writeValueAsString(dir.resolve("bad.yml").toString()) + "]}");
        assertFalse(bad.path("ok").asBoolean(), bad.toString());
    }

    @Test
    void theServeLoopAnswersEveryRequestInOrder() throws Exception {
        Path root = repo("README.md", "hello\n");
        Path recipe = dir.resolve("r.yml");
        Files.writeString(
                recipe,
                "type: specs.openrewrite.org/v1beta/recipe\nname: test.R\ndisplayName: R\nrecipeList:\n"
                        + "  - org.openrewrite.text.FindAndReplace:\n      find: hello\n      replace: bye\n");
        List<String> lines = new ArrayList<>();
        String[][] requests = {
            {
                "parse-1",
                "{\"protocol\":1,\"id\":\"parse-1\",\"type\":\"parse\",\"root\":"
                        + Main.JSON.writeValueAsString(root.toString())
            },
            {
                "run-2",
                "{\"protocol\":1,\"id\":\"run-2\",\"type\":\"run\",\"each_step\":true,\"recipe\":\"test.R\",\"recipe_files\":["
                        + Main.JSON.writeValueAsString(recipe.toString()) + "]"
            },
            {
                "run-3",
                "{\"protocol\":1,\"id\":\"run-3\",\"type\":\"run\",\"each_step\":false,\"recipe\":\"test.R\",\"recipe_files\":["
                        + Main.JSON.writeValueAsString(recipe.toString()) + "]"
            },
        };
        for (String[] r : requests) {
            Path file = dir.resolve(r[0] + ".json");
            Files.writeString(
                    file,
                    r[1] + ",\"output\":"
                            + Main.JSON.writeValueAsString(
                                    dir.resolve(r[0] + ".out").toString()) + "}");
            lines.add(file.toString());
        }
        String classpath = System.getProperty("java.class.path");
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        classpath,
                        "rewriteassist.runner.Main",
                        "--serve")
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        p.getOutputStream().write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor());
        assertEquals("done parse-1\ndone run-2\ndone run-3\n", out);
        JsonNode second = Main.JSON.readTree(dir.resolve("run-2.out").toFile());
        assertTrue(second.path("runs").get(1).path("diff").asText().contains("+bye"), second.toString());
        JsonNode third = Main.JSON.readTree(dir.resolve("run-3.out").toFile());
        assertEquals(1, third.path("runs").size(), third.toString());
    }
}
