package dev.baton.test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.baton.framework.AclProvider;
import dev.baton.framework.BatonClient;
import dev.baton.framework.NoAuthException;
import dev.baton.server.EmbeddedEnsemble;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.function.Executable;

/**
 * The TLS, authentication and ACL settings of the secure test ensemble in use, for the helpers
 * that make clients ({@link TestClients}, {@link SessionKiller}, {@link CutOffClient}) and for
 * tests that need a client of another identity.
 *
 * <p>A test class annotated {@code @EnsembleTest(tls = true)} (or any {@code @EnsembleTest} class
 * while the system property {@code baton.test.tls} is {@code true}) runs against a TLS-only
 * ensemble that requires client certificates. While its ensemble is up, every client those
 * helpers make — and every {@code BatonClient} the extension injects — connects over TLS,
 * presents the certificate of {@link #IDENTITY} ({@code x509:CN=recipes}) and creates its nodes
 * with {@link AclProvider#CREATOR_ALL}: the test's own code is unchanged, and every node the
 * recipes make is closed to every other identity. {@link #client(String)} makes a client of
 * another identity, to show that it is refused.
 *
 * <p>One secure ensemble at a time per JVM: surefire runs a JVM's test classes one after the
 * other, and the extension registers the class's ensemble when it starts it and forgets it when
 * it closes it. Clients made in other ways (a raw {@code ZooKeeper}, a Curator client) do not
 * know about it and cannot connect to a secure ensemble.
 */
public final class TestSecurity {
    /** The certificate name every client the helpers make presents: its ACL id is {@code x509:CN=recipes}. */
    public static final String IDENTITY = "recipes";
    /** A refusal is the server's answer to one request: far quicker than this, never a wait for a timeout. */
    public static final Duration REFUSED_WITHIN = Duration.ofSeconds(5);

    private static volatile EmbeddedEnsemble active;

    private TestSecurity() {
    }

    /** Called by the extension once a secure ensemble is up. */
    static void activate(EmbeddedEnsemble ensemble) {
        active = Objects.requireNonNull(ensemble, "ensemble");
    }

    /** Called by the extension when the secure ensemble closes; a later one may have replaced it. */
    static void deactivate(EmbeddedEnsemble ensemble) {
        if (active == ensemble) {
            active = null;
        }
    }

    /** {@return whether a secure ensemble is up in this JVM, so that clients must connect over TLS} */
    public static boolean isActive() {
        return active != null;
    }

    /**
     * {@return the ZooKeeper client configuration for TLS as {@code identity}, if a secure ensemble
     * is up}
     *
     * @param identity the certificate's name (its ACL id is {@code x509:CN=<identity>})
     */
    public static Optional<ZKClientConfig> zkClientConfig(String identity) {
        EmbeddedEnsemble ensemble = active;
        return ensemble == null ? Optional.empty() : Optional.of(ensemble.certificates().clientConfig(identity));
    }

    /**
     * Gives {@code builder} the secure ensemble's TLS settings as {@link #IDENTITY} and
     * {@code CREATOR_ALL}, if one is up; otherwise leaves it as it is.
     *
     * @param builder a client's settings
     * @return {@code builder}
     */
    static BatonClient.Builder apply(BatonClient.Builder builder) {
        return apply(builder, IDENTITY);
    }

    private static BatonClient.Builder apply(BatonClient.Builder builder, String identity) {
        zkClientConfig(identity).ifPresent(tls -> builder.zkClientConfig(tls).aclProvider(AclProvider.CREATOR_ALL));
        return builder;
    }

    /**
     * {@return a started client of the secure ensemble that presents {@code identity}'s certificate
     * and creates nodes with {@code CREATOR_ALL}} The caller closes it.
     *
     * @param identity the client's certificate name, such as {@code intruder}
     * @throws IllegalStateException if no secure ensemble is up
     */
    public static BatonClient client(String identity) {
        EmbeddedEnsemble ensemble = active;
        if (ensemble == null) {
            throw new IllegalStateException("no secure ensemble is up: annotate the test class @EnsembleTest(tls = true)");
        }
        return TestClients.startedAsIs(apply(BatonClient.builder().connectString(ensemble.connectString())
            .sessionTimeout(Duration.ofSeconds(10)), identity));
    }

    /**
     * Asserts that a client of another identity is refused everything on every node under
     * {@code root} (and {@code root} itself): reading its data or its children, writing its data,
     * and deleting it (deleting {@code root} needs rights on its parent, which the recipe did not
     * necessarily make, so only the nodes below it). Call it while the recipe is at rest: a node
     * deleted during the walk answers "no node" instead.
     *
     * @param owner a client of {@link #IDENTITY}, to walk the tree
     * @param intruder a client of another identity ({@link #client(String)})
     * @param root the recipe's folder
     * @return how many nodes were checked, at least one
     * @throws InterruptedException if the thread is interrupted
     */
    public static int assertEveryNodeRefused(BatonClient owner, BatonClient intruder, String root) throws InterruptedException {
        List<String> nodes = new ArrayList<>();
        collect(owner, root, nodes);
        for (String node : nodes) {
            refused(() -> intruder.getData().forPath(node));
            refused(() -> intruder.getChildren().forPath(node));
            refused(() -> intruder.setData().forPath(node, new byte[] {'x'}));
            if (!node.equals(root)) {
                refused(() -> intruder.delete().forPath(node));
            }
        }
        return nodes.size();
    }

    private static void collect(BatonClient owner, String path, List<String> into) throws InterruptedException {
        into.add(path);
        for (String child : owner.getChildren().forPath(path)) {
            collect(owner, path.equals("/") ? "/" + child : path + "/" + child, into);
        }
    }

    /**
     * Asserts that {@code call} fails with Baton's {@link NoAuthException}, and within
     * {@link #REFUSED_WITHIN}: a refusal, not a wait that ran out.
     *
     * @param call what another identity tries
     * @return the exception, for further checks
     */
    public static NoAuthException refused(Executable call) {
        long start = System.nanoTime();
        NoAuthException e = assertThrows(NoAuthException.class, call, "another identity should be refused");
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(took.compareTo(REFUSED_WITHIN) < 0, "refused after " + took + ", not at once (limit " + REFUSED_WITHIN + ")");
        return e;
    }
}
