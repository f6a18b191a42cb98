package dev.baton.test;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.ServerMode;
import java.time.Duration;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstancePostProcessor;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit 5 extension behind {@link EnsembleTest}: one ensemble per test class (nested classes
 * share their enclosing class's), closed when the class is done.
 */
public final class EnsembleExtension implements BeforeAllCallback, TestInstancePostProcessor, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(EnsembleExtension.class);
    private static final String KEY = "ensemble";
    /** Names a ZooKeeper release the ensembles run instead of the one Baton links (see {@link EnsembleTest}). */
    static final String SERVER_VERSION_PROPERTY = "baton.test.serverVersion";
    /** Secures every class's ensemble and clients, as {@link EnsembleTest#tls()} does one class's. */
    static final String TLS_PROPERTY = "baton.test.tls";
    /** The servers' shortest session timeout (the embedded ensemble's default). */
    private static final Duration MIN_SESSION_TIMEOUT = Duration.ofSeconds(1);
    /** How long a child-JVM server may take to listen: a deadline, waited on only as long as the start takes. */
    private static final Duration CHILD_START_TIMEOUT = Duration.ofSeconds(120);

    /** Injects the static fields. */
    @Override
    public void beforeAll(ExtensionContext context) {
        Class<?> testClass = context.getRequiredTestClass();
        requireInjectable(testClass);
        inject(testClass, null, ensemble(context));
    }

    /** Injects the instance fields. */
    @Override
    public void postProcessTestInstance(Object testInstance, ExtensionContext context) {
        requireInjectable(testInstance.getClass());
        inject(testInstance.getClass(), testInstance, ensemble(context));
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
        Class<?> type = parameter.getParameter().getType();
        // every @ConnectString parameter is ours, so that one of the wrong type gets our message, not JUnit's
        return type == EmbeddedEnsemble.class
            || type == BatonClient.class
            || parameter.isAnnotated(ConnectString.class);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
        Class<?> type = parameter.getParameter().getType();
        if (parameter.isAnnotated(ConnectString.class) && type != String.class) {
            throw new ParameterResolutionException("@ConnectString needs a String parameter, but parameter " + parameter.getIndex()
                + " of " + parameter.getDeclaringExecutable().getDeclaringClass().getSimpleName() + "."
                + parameter.getDeclaringExecutable().getName() + " is a " + type.getSimpleName());
        }
        EmbeddedEnsemble ensemble = ensemble(extension);
        if (type == BatonClient.class) {
            int timeout = settings(owningClassContext(extension)).clientSessionTimeoutMillis();
            BatonClient client = TestClients.started(BatonClient.builder()
                .connectString(ensemble.connectString())
                .sessionTimeout(Duration.ofMillis(timeout)));
            extension.getStore(NAMESPACE).put(new Object(), (AutoCloseable) client::close);
            return client;
        }
        return type == EmbeddedEnsemble.class ? ensemble : ensemble.connectString();
    }

    /**
     * {@return the ensemble of the test class that {@code context} belongs to, started on first use}
     *
     * @param context a context of the test class or of one of its tests
     */
    public static EmbeddedEnsemble ensemble(ExtensionContext context) {
        ExtensionContext owner = owningClassContext(context);
        return owner.getStore(NAMESPACE)
            .getOrComputeIfAbsent(KEY, key -> new StartedEnsemble(settings(owner)), StartedEnsemble.class)
            .ensemble;
    }

    /** The innermost class context annotated with @EnsembleTest: nested classes share it. */
    private static ExtensionContext owningClassContext(ExtensionContext context) {
        for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
            boolean classLevel = c.getTestMethod().isEmpty();
            if (classLevel && c.getTestClass().filter(t -> AnnotationSupport.isAnnotated(t, EnsembleTest.class)).isPresent()) {
                return c;
            }
        }
        throw new ExtensionConfigurationException("EnsembleExtension needs @EnsembleTest on the test class");
    }

    private static EnsembleTest settings(ExtensionContext owner) {
        Optional<EnsembleTest> annotation = AnnotationSupport.findAnnotation(owner.getRequiredTestClass(), EnsembleTest.class);
        return annotation.orElseThrow(() ->
            new ExtensionConfigurationException("EnsembleExtension needs @EnsembleTest on " + owner.getRequiredTestClass()));
    }

    /** A {@code @ConnectString} field the extension cannot fill is refused, not left at null or its initial value. */
    private static void requireInjectable(Class<?> type) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (!field.isAnnotationPresent(ConnectString.class)) {
                    continue;
                }
                String problem = Modifier.isFinal(field.getModifiers()) ? "final"
                    : field.getType() != String.class ? "a " + field.getType().getSimpleName() : null;
                if (problem != null) {
                    throw new ExtensionConfigurationException("@ConnectString needs a non-final String field, but "
                        + c.getSimpleName() + "." + field.getName() + " is " + problem);
                }
            }
        }
    }

    private static void inject(Class<?> type, Object instance, EmbeddedEnsemble ensemble) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                boolean isStatic = Modifier.isStatic(field.getModifiers());
                if (Modifier.isFinal(field.getModifiers()) || isStatic != (instance == null)) {
                    continue;
                }
                Object value = null;
                if (field.getType() == EmbeddedEnsemble.class) {
                    value = ensemble;
                } else if (field.getType() == String.class && field.isAnnotationPresent(ConnectString.class)) {
                    value = ensemble.connectString();
                }
                if (value != null) {
                    set(field, instance, value);
                }
            }
        }
    }

    private static void set(Field field, Object instance, Object value) {
        try {
            field.setAccessible(true);
            field.set(instance, value);
        } catch (IllegalAccessException | RuntimeException e) {
            throw new ExtensionConfigurationException("EnsembleExtension cannot set " + field.getDeclaringClass().getSimpleName()
                + "." + field.getName() + ": " + e.getMessage(), e);
        }
    }

    /** Kept in the class's store: JUnit closes stored AutoCloseables when the class is done. */
    private static final class StartedEnsemble implements AutoCloseable {
        private final EmbeddedEnsemble ensemble;

        StartedEnsemble(EnsembleTest settings) {
            EmbeddedEnsemble.Builder builder = EmbeddedEnsemble.builder()
                .nodes(settings.nodes())
                .forceSync(settings.forceSync())
                .sessionTimeoutBounds(MIN_SESSION_TIMEOUT, Duration.ofMillis(settings.maxSessionTimeoutMillis()))
                .peerProxies(settings.peerProxies());
            // the compatibility suite reruns test classes against another server release (docs/compatibility.md)
            String version = System.getProperty(SERVER_VERSION_PROPERTY, "").trim();
            if (!version.isEmpty()) {
                builder.mode(ServerMode.CHILD_PROCESSES).serverVersion(version);
            }
            // ZooKeeper's server reads TLS settings from JVM-wide properties: only a child JVM keeps them to itself
            boolean tls = settings.tls() || Boolean.getBoolean(TLS_PROPERTY);
            if (tls) {
                builder.mode(ServerMode.CHILD_PROCESSES).tls(true).requireClientCertificates(true);
            }
            if (tls || !version.isEmpty()) {
                // a child JVM starts in ~3 s on a quiet machine, but a loaded 2-core one has taken over 30 s
                builder.startTimeout(CHILD_START_TIMEOUT);
            }
            EmbeddedEnsemble built = builder.build();
            try {
                built.start();
            } catch (RuntimeException e) {
                built.close();
                throw e;
            }
            this.ensemble = built;
            if (tls) {
                TestSecurity.activate(built);
            }
        }

        @Override
        public void close() {
            TestSecurity.deactivate(ensemble);
            ensemble.close();
        }
    }
}
