package dev.baton.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against one real ZooKeeper ensemble, started before the first test and
 * closed after the last.
 *
 * <p>Fields of type {@code EmbeddedEnsemble} (static or not) are filled in, and test methods and
 * constructors may take an {@code EmbeddedEnsemble} parameter, a {@code String} parameter
 * annotated {@link ConnectString}, or {@code BatonClient} parameters: each is a new client,
 * started and connected to the whole ensemble, closed when the test ends.
 *
 * <p>With the system property {@code baton.test.serverVersion} set (such as {@code 3.8.6}), the
 * servers are child JVMs running that ZooKeeper release from its own jars
 * ({@code EmbeddedEnsemble.Builder.serverVersion}); the compatibility suite reruns contract tests
 * this way (docs/compatibility.md).
 *
 * <p>With {@link #tls()} (or the system property {@code baton.test.tls} set to {@code true}),
 * the servers are child JVMs that serve TLS only and require client certificates, and every
 * client the test support makes connects over TLS as {@code x509:CN=recipes} with
 * {@code CREATOR_ALL} ACLs ({@link TestSecurity}); a family reruns its contract tests this way by
 * a subclass that only changes the annotation (docs/security.md).
 *
 * <pre>{@code
 * @EnsembleTest(nodes = 3)
 * class FailoverTest {
 *     EmbeddedEnsemble ensemble;
 *
 *     @Test
 *     void survivesLeaderLoss(@ConnectString String connect) { ... }
 * }
 * }</pre>
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(EnsembleExtension.class)
public @interface EnsembleTest {
    /** {@return servers in the ensemble: 1 (standalone, the default) or 3 or 5 (a quorum)} */
    int nodes() default 1;

    /** {@return whether the servers fsync each transaction (off by default: faster, and tests do not need it)} */
    boolean forceSync() default false;

    /**
     * {@return whether server-to-server traffic runs through proxies, so the test can partition servers
     * ({@code EmbeddedEnsemble.isolate}, {@code partition}) and the {@link Nemesis} can draw
     * partition faults} Off by default.
     */
    boolean peerProxies() default false;

    /** {@return session timeout of the {@code BatonClient}s injected into test parameters, in milliseconds} */
    int clientSessionTimeoutMillis() default 10_000;

    /**
     * The longest session timeout the servers grant, in milliseconds: a client that asks for more
     * gets this (the servers clamp it), as production ensembles often do. Default 60 s.
     *
     * @return the servers' maximum session timeout, in milliseconds
     */
    int maxSessionTimeoutMillis() default 60_000;

    /**
     * Whether the servers serve TLS only and require client certificates (child JVMs, with
     * certificates made for the run), and every client the test support makes — injected
     * {@code BatonClient}s, {@link TestClients}, {@link SessionKiller}, {@link CutOffClient} —
     * connects over TLS as {@link TestSecurity#IDENTITY} and makes its nodes with
     * {@code CREATOR_ALL}. Off by default; the system property {@code baton.test.tls=true} turns it
     * on for every class.
     *
     * @return whether the ensemble and its clients are secured
     */
    boolean tls() default false;
}
