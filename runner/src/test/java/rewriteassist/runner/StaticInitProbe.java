package rewriteassist.runner;

/** A class that is not a recipe and says when its static initializer ran (RecipeNamesTest). */
public final class StaticInitProbe {
    static final String PROPERTY = "rewriteassist.runner.probe";

    static {
        System.setProperty(PROPERTY, "initialized");
    }

    private StaticInitProbe() {}
}
