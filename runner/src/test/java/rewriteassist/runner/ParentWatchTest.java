package rewriteassist.runner;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The watch's test of a parent's death. The end of a runner whose parent is killed is tested
 * through the real binary (tests/process_hygiene.rs).
 */
class ParentWatchTest {
    @Test
    void theParentThatStartedUsIsNotGoneAnyOtherIs() {
        long parent = ParentWatch.parentPid().orElseThrow();
        assertFalse(ParentWatch.orphaned(parent));
        assertTrue(ParentWatch.orphaned(parent + 1));
        assertTrue(ParentWatch.orphaned(ProcessHandle.current().pid()));
    }
}
