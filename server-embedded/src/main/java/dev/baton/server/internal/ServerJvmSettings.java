package dev.baton.server.internal;

import java.util.Map;
import java.util.function.Consumer;
import javax.management.JMException;
import org.apache.zookeeper.jmx.MBeanRegistry;
import org.apache.zookeeper.jmx.ZKMBeanInfo;
import org.apache.zookeeper.util.ServiceUtils;

/**
 * The JVM-wide switches a ZooKeeper server reads from system properties, set once before the
 * first in-process server starts.
 *
 * <p>ZooKeeper's server reads several settings from system properties rather than from its
 * configuration object, so an in-process ensemble has to set them for the whole JVM. A value the
 * user set explicitly (for example with {@code -Dzookeeper.4lw.commands.whitelist=...}) is kept.
 * Baton also makes ZooKeeper's "exit the JVM" requests log instead (an embedded server must never
 * stop its host), and replaces ZooKeeper's JMX registry with one that registers nothing, because
 * several ensembles in one JVM would otherwise fight over the same MBean names.
 */
public final class ServerJvmSettings {
    /** The four-letter words an embedded server answers. */
    public static final String FOUR_LETTER_WORDS = "ruok,mntr,srvr,stat,cons,conf,isro,dump,wchs,envi";

    /** Properties every embedded server process needs; also passed to child-process servers. */
    public static final Map<String, String> PROPERTIES = Map.of(
        "zookeeper.extendedTypesEnabled", "true",            // TTL nodes
        "zookeeper.admin.enableServer", "false",             // no Jetty on port 8080 per server
        "zookeeper.4lw.commands.whitelist", FOUR_LETTER_WORDS,
        "znode.container.checkIntervalMs", "1000",           // empty containers go within a second
        "zookeeper.jmx.log4j.disable", "true",
        "zookeeper.preAllocSize", "4096",                    // KiB: keeps test data dirs small
        // a server cut off from a quorum retries its election at most 2 s apart (ZooKeeper backs
        // off to 60 s), so it rejoins soon after a partition heals or a quorum comes back
        "zookeeper.fastleader.maxNotificationInterval", "2000");

    private static boolean applied;

    private ServerJvmSettings() {
    }

    /** Applies the settings once per JVM; later calls do nothing. */
    public static synchronized void applyInProcess() {
        if (applied) {
            return;
        }
        PROPERTIES.forEach((key, value) -> {
            if (System.getProperty(key) == null) {
                System.setProperty(key, value);
            }
        });
        Consumer<Integer> logOnly = ServiceUtils.LOG_ONLY;
        ServiceUtils.setSystemExitProcedure(logOnly);
        MBeanRegistry.setInstance(new SilentMBeanRegistry());
        applied = true;
    }

    /** A JMX registry that registers nothing. */
    private static final class SilentMBeanRegistry extends MBeanRegistry {
        @Override
        public void register(ZKMBeanInfo bean, ZKMBeanInfo parent) throws JMException {
            // in-process ensembles are not managed through JMX
        }

        @Override
        public void unregister(ZKMBeanInfo bean) {
            // nothing was registered
        }
    }
}
