package rewriteassist.runner.template;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The after side's parameters are replaced token by token: never inside a name, a string or a member. */
class JavaTokensTest {
    private static String replace(String text, String part, String name) {
        return JavaTokens.of(text).replace(JavaTokens.of(part), name).normalized();
    }

    @Test
    void aParameterIsReplacedOnlyWhereItsTokensAre() {
        assertEquals("assertThat(a).isEqualTo(name2)", replace("assertThat(name).isEqualTo(name2)", "name", "a"));
        assertEquals("assertThat(a).isEqualTo(\"name\")", replace("assertThat(name).isEqualTo(\"name\")", "name", "a"));
        assertEquals("a .isEmpty()", replace("other . trim()\n  .isEmpty()", "other.trim()", "a"));
        // A member's or a method's name of the same spelling is another symbol.
        assertEquals("a.name + name()", replace("name.name + name()", "name", "a"));
    }

    @Test
    void whitespaceAndCommentsAsideTextsAreTheSame() {
        assertEquals(
                JavaTokens.of("foo( a, /* why */ b )").key(),
                JavaTokens.of("foo(a,\n        b)").key());
        assertEquals("foo(a, b)", JavaTokens.of("foo(a,\n        b)").normalized());
        assertEquals("x >>>= 2", JavaTokens.of("x  >>>=  2").normalized());
    }

    @Test
    void calledMethodsAndSimpleNames() {
        JavaTokens tokens = JavaTokens.of("assertThat(new Cart(a)).isEqualTo(List.of(b))");
        assertEquals(List.of("assertThat", "isEqualTo"), tokens.calledMethods().subList(0, 2));
        assertEquals(
                List.of("assertThat", "Cart", "a", "List", "b"),
                tokens.simpleNames().stream().filter(n -> !n.equals("new")).toList());
    }
}
