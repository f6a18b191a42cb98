package dev.baton.framework.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.InvalidPathException;
import org.junit.jupiter.api.Test;

class PathsTest {
    @Test
    void rejectsPathsZooKeeperWouldRefuseNamingPathAndReason() {
        assertThatThrownBy(() -> Paths.validate("create", "relative/path", false))
            .isInstanceOf(InvalidPathException.class)
            .hasMessage("create 'relative/path': invalid path: Path must start with / character");
        assertThatThrownBy(() -> Paths.validate("create", "/trailing/", false))
            .isInstanceOf(InvalidPathException.class).hasMessageContaining("must not end with / character");
        assertThatThrownBy(() -> Paths.validate("getData", "/empty//segment", false))
            .isInstanceOf(InvalidPathException.class).hasMessageContaining("empty node name specified");
        assertThatThrownBy(() -> Paths.validate("getData", "/a/../b", false))
            .isInstanceOf(InvalidPathException.class).hasMessageContaining("relative paths not allowed");
        assertThatThrownBy(() -> Paths.validate("getData", "/bad\u0000char", false))
            .isInstanceOf(InvalidPathException.class).hasMessageContaining("null character");
        assertThatThrownBy(() -> Paths.validate("getData", null, false))
            .isInstanceOf(InvalidPathException.class).hasMessage("getData null: invalid path: a path is required");
    }

    @Test
    void aTrailingSlashIsFineForASequentialCreate() {
        assertThat(Paths.validate("create", "/queue/", true)).isEqualTo("/queue/");
    }

    @Test
    void namespacesPrefixAndStripPaths() {
        assertThat(Paths.fix("app", "/a/b")).isEqualTo("/app/a/b");
        assertThat(Paths.fix("app", "/")).isEqualTo("/app");
        assertThat(Paths.fix(null, "/a")).isEqualTo("/a");
        assertThat(Paths.unfix("app", "/app/a/b")).isEqualTo("/a/b");
        assertThat(Paths.unfix("app", "/app")).isEqualTo("/");
        assertThat(Paths.unfix("app", "/application/x")).isEqualTo("/application/x");
        assertThatThrownBy(() -> Paths.validateNamespace("/app"))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("namespace must not start with '/', was '/app'");
    }

    @Test
    void parentNameJoinAndUtf8Length() {
        assertThat(Paths.parent("/a/b")).isEqualTo("/a");
        assertThat(Paths.parent("/a")).isEqualTo("/");
        assertThat(Paths.name("/a/b")).isEqualTo("b");
        assertThat(Paths.join("/", "x")).isEqualTo("/x");
        assertThat(Paths.join("/a", "x")).isEqualTo("/a/x");
        assertThat(Paths.utf8Length("a\u00e9\u20ac\uD83D\uDE00")).isEqualTo(1 + 2 + 3 + 4);
    }

    @Test
    void sequenceNumbersAreDigitsWithASignAfterOverflow() {
        assertThat(Paths.isSequenceNumber("0000000042")).isTrue();
        assertThat(Paths.isSequenceNumber(String.format("%010d", -5))).as("ZooKeeper's form after overflow").isTrue();
        assertThat(Paths.isSequenceNumber("7")).as("another client's width").isTrue();
        assertThat(Paths.isSequenceNumber("")).isFalse();
        assertThat(Paths.isSequenceNumber("-")).isFalse();
        assertThat(Paths.isSequenceNumber("00000000x1")).isFalse();
    }
}
