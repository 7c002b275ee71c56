package rewriteassist.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import rewriteassist.runner.Fixture;

public class RecipeNamesTest {
    @RegisterExtension
    final Fixture fixture = new Fixture();

    @Test
    void aClassThatIsNotARecipeIsRefusedWithoutRunningItsStaticInitializer() throws Exception {
        fixture.parse(fixture.repo("src/main/java/com/acme/A.java", "package com.acme;\n\nclass A {}\n"));
        String probe = "rewriteassist.runner.StaticInitProbe";
        String yaml = Fixture.recipe("com.acme.Evil", Fixture.changeType("com.acme.A", "com.acme.B"), probe);
        JsonNode results = fixture.send(fixture.runRequest(yaml, "com.acme.Evil", true));
        assertNull(System.getProperty("rewriteassist.runner.probe"), "its static initializer ran");
        assertFalse(results.path("ok").asBoolean(), results.toString());
        assertEquals("yaml_error", results.path("error").path("kind").asText(), results.toString());
        assertTrue(
                results.toString().contains(probe + "` in a recipe list is a class but not a recipe"),
                results.toString());

        // Recipes, declared or on the classpath, and unknown names still go to OpenRewrite.
        String declared = Fixture.recipe("com.acme.Inner", Fixture.changeType("com.acme.A", "com.acme.B")) + "---\n"
                + Fixture.recipe("com.acme.Outer", "com.acme.Inner");
        assertTrue(fixture.run(declared, "com.acme.Outer").path("ok").asBoolean());
    }
}
