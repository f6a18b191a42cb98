package dev.baton.spring.discovery;

import dev.baton.framework.BatonException;
import dev.baton.framework.Failures;
import dev.baton.recipes.discovery.ServiceDiscovery;
import dev.baton.recipes.discovery.ServiceInstance;
import dev.baton.recipes.discovery.ServiceInstanceBuilder;
import dev.baton.spring.BatonStartupException;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;

/**
 * Registers this service instance in Baton's service discovery while the application runs, and
 * deregisters it when the context stops.
 *
 * <p>The instance's port is, in order: the one set, the port the web server was given (heard from
 * its {@link WebServerInitializedEvent}, so {@code server.port=0} works), or the fallback the
 * auto-configuration passes ({@code server.port}). It starts in the last lifecycle phase, after
 * the web server, so the instance is registered only once it can serve, and it deregisters first
 * on shutdown, before the web server stops taking requests.
 *
 * <p>Guarantees and caveats: the registration is an ephemeral node kept by the client's session;
 * the discovery writes it again after a session expiry. Without a connection at start, the start
 * waits at most the client's connection timeout, logs a warning and goes on: the discovery keeps
 * the registration and writes it when the client connects, so a service started during a
 * ZooKeeper outage comes up and appears in discovery once the ensemble is back. A process that dies without stopping its
 * context disappears from discovery when its session expires.
 */
public final class BatonServiceRegistration implements SmartLifecycle, ApplicationListener<WebServerInitializedEvent> {
    private static final Logger LOG = LoggerFactory.getLogger(BatonServiceRegistration.class);

    private final ServiceDiscovery<Void> discovery;
    private final ServiceInstanceBuilder<Void> template;
    private final Integer port;
    private final Supplier<Integer> fallbackPort;

    // guarded by this
    private ServiceInstance<Void> registered;
    private volatile Integer webServerPort;

    /**
     * A registration of the instance {@code template} describes.
     *
     * @param discovery the discovery to register in (started by its owner)
     * @param template the instance, without its port (name, id, address, metadata)
     * @param port the port to register, or null to take the web server's
     * @param fallbackPort the port when there is neither (null: none, which fails the start)
     */
    public BatonServiceRegistration(ServiceDiscovery<Void> discovery, ServiceInstanceBuilder<Void> template,
                                    Integer port, Supplier<Integer> fallbackPort) {
        this.discovery = Objects.requireNonNull(discovery, "discovery");
        this.template = Objects.requireNonNull(template, "template");
        this.port = port;
        this.fallbackPort = Objects.requireNonNull(fallbackPort, "fallbackPort");
    }

    /** Remembers the web server's port (its management server's is ignored). */
    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        if (event.getApplicationContext().getServerNamespace() == null) {
            webServerPort = event.getWebServer().getPort();
        }
    }

    /**
     * Registers the instance: written at once when connected; otherwise, after the client's
     * connection timeout, left to the discovery to write as soon as the client connects.
     *
     * @throws IllegalStateException if no port is known, or the start is interrupted
     */
    @Override
    public synchronized void start() {
        if (registered != null) {
            return;
        }
        ServiceInstance<Void> instance = template.port(resolvePort()).build();
        try {
            discovery.registerService(instance);
            LOG.info("registered {} instance {} at {}:{} under {}", instance.name(), instance.id(), instance.address(),
                instance.port(), discovery.basePath());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while registering " + instance.name() + " in discovery", e);
        } catch (BatonException e) {
            if (!Failures.isConnectionTrouble(e)) {
                throw e;
            }
            // the discovery keeps a registration that failed for lack of a connection, and writes it on connecting
            LOG.warn("{} instance {} is not in discovery under {} yet ({}): it is registered when the client connects",
                instance.name(), instance.id(), discovery.basePath(), e.getMessage());
        }
        registered = instance;
    }

    /** Deregisters the instance. */
    @Override
    public synchronized void stop() {
        if (registered == null) {
            return;
        }
        ServiceInstance<Void> leaving = registered;
        registered = null;
        try {
            discovery.unregisterService(leaving);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // the node is ephemeral: at worst it goes with the session
            LOG.warn("could not deregister {} instance {}: {}", leaving.name(), leaving.id(), e.toString());
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return registered != null;
    }

    /** Last: after the web server starts, and first to stop. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE;
    }

    /** {@return the instance registered now, or null when not running} */
    public synchronized ServiceInstance<Void> instance() {
        return registered;
    }

    private int resolvePort() {
        Integer chosen = port != null ? port : webServerPort != null ? webServerPort : fallbackPort.get();
        if (chosen == null) {
            throw new BatonStartupException("baton.discovery.port", "no port to register in discovery: this application runs "
                + "no web server; set baton.discovery.port (or server.port)",
                "Set baton.discovery.port (or server.port) to the port other services reach this one on.", null);
        }
        return chosen;
    }

    /**
     * {@return a template from the name, id, address and metadata given (null: the builder's default)}
     *
     * @param name the service's name
     * @param id the instance id, or null for a random one
     * @param address the address, or null for this host's
     * @param metadata metadata entries
     */
    public static ServiceInstanceBuilder<Void> template(String name, String id, String address, Map<String, String> metadata) {
        ServiceInstanceBuilder<Void> b = ServiceInstance.<Void>builder().name(name);
        if (id != null) {
            b.id(id);
        }
        if (address != null) {
            b.address(address);
        }
        b.metadata(metadata);
        return b;
    }
}
