package dev.baton.cli;

import dev.baton.server.EmbeddedEnsemble;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fixture of a test class that runs {@code baton} as a child process against its embedded
 * ensemble (annotate the subclass with {@code @EnsembleTest}): the ensemble, a folder for the
 * processes' output, and {@link #start} with {@code BATON_CONNECT} pointing at the ensemble.
 */
abstract class AgainstEnsemble {
    /** How long any one wait on a child process may take before the test fails. */
    static final Duration WAIT = Duration.ofSeconds(60);

    EmbeddedEnsemble ensemble;
    @TempDir
    Path dir;

    /** Starts baton with {@code args}, connected to this class's ensemble. */
    BatonProcess start(String... args) throws IOException {
        return BatonProcess.start(dir, Map.of("BATON_CONNECT", ensemble.connectString()), args);
    }
}
