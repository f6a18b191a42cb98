package dev.baton.cli;

import dev.baton.framework.BatonClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.net.SocketFactory;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.apache.zookeeper.common.X509Exception;

/**
 * Turns the TLS and authentication options of {@link ConnectOptions} into ZooKeeper client
 * settings: a {@link ZKClientConfig} for TLS and SASL, and session credentials for {@code --auth}.
 *
 * <p>SASL credentials reach ZooKeeper's client only through a JAAS configuration; baton is a
 * program of its own, so it installs one for the whole JVM holding its one section.
 */
final class ClientSecurity {
    /** The JAAS section baton's SASL credentials are given under. */
    static final String SASL_SECTION = "BatonCliClient";

    private ClientSecurity() {
    }

    static void configure(BatonClient.Builder builder, ConnectOptions options) {
        ZKClientConfig config = clientConfig(options);
        if (config != null) {
            builder.zkClientConfig(config);
        }
        if (options.auth != null && !options.auth.isBlank()) {
            int colon = options.auth.indexOf(':');
            if (colon <= 0 || colon == options.auth.length() - 1) {
                throw new CliExit(ExitCodes.USAGE, "--auth expects SCHEME:CREDENTIALS such as digest:user:secret, was '"
                    + options.auth.replaceAll(":.*", ":...") + "'");
            }
            builder.authorization(options.auth.substring(0, colon), options.auth.substring(colon + 1).getBytes(StandardCharsets.UTF_8));
        }
    }

    /** {@return whether the options ask for TLS (--tls, or a trust or key store)} */
    static boolean tls(ConnectOptions options) {
        return options.tls || options.trustStore != null || options.keyStore != null;
    }

    /**
     * {@return sockets for the four-letter words: TLS with the same trust and key stores as the
     * client's connection (read by ZooKeeper's own code, so the same store types and defaults), or
     * plain TCP when no TLS is asked for}
     *
     * @throws CliExit with {@link ExitCodes#USAGE} when a store cannot be read or opened (a wrong password)
     */
    static SocketFactory wordSockets(ConnectOptions options) {
        if (!tls(options)) {
            return SocketFactory.getDefault();
        }
        ZKClientConfig config = new ZKClientConfig();
        tls(config, options);
        try (ClientX509Util x509 = new ClientX509Util()) {
            return x509.createSSLContextAndOptions(config).getSSLContext().getSocketFactory();
        } catch (X509Exception.SSLContextException e) {
            Throwable cause = e;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            throw new CliExit(ExitCodes.USAGE, "cannot use the TLS trust or key store (" + storesNamed(options) + "): "
                + (cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage())
                + " (is the password right, and does the trust store hold a CA certificate?)");
        }
    }

    private static String storesNamed(ConnectOptions options) {
        StringBuilder named = new StringBuilder();
        if (options.trustStore != null) {
            named.append("--truststore ").append(options.trustStore);
        }
        if (options.keyStore != null) {
            named.append(named.length() == 0 ? "" : ", ").append("--keystore ").append(options.keyStore);
        }
        return named.length() == 0 ? "the JDK's own" : named.toString();
    }

    /** {@return ZooKeeper client settings for the TLS and SASL options given, or null for none} */
    static ZKClientConfig clientConfig(ConnectOptions options) {
        boolean tls = tls(options);
        boolean sasl = options.saslUser != null || options.saslPassword != null;
        if (!tls && !sasl) {
            return null;
        }
        ZKClientConfig config = new ZKClientConfig();
        if (tls) {
            tls(config, options);
        }
        if (sasl) {
            sasl(config, options);
        } else {
            // no SASL login attempt (and no warning about a missing JAAS file) unless asked for
            config.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "false");
        }
        return config;
    }

    private static void tls(ZKClientConfig config, ConnectOptions options) {
        config.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
        config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, "org.apache.zookeeper.ClientCnxnSocketNetty");
        if (options.trustStore != null) {
            config.setProperty("zookeeper.ssl.trustStore.location", readable("--truststore", options.trustStore));
            if (options.trustStorePassword != null) {
                config.setProperty("zookeeper.ssl.trustStore.password", options.trustStorePassword);
            }
        }
        if (options.keyStore != null) {
            config.setProperty("zookeeper.ssl.keyStore.location", readable("--keystore", options.keyStore));
            if (options.keyStorePassword != null) {
                config.setProperty("zookeeper.ssl.keyStore.password", options.keyStorePassword);
            }
        }
    }

    private static void sasl(ZKClientConfig config, ConnectOptions options) {
        if (options.saslUser == null || options.saslPassword == null) {
            throw new CliExit(ExitCodes.USAGE, "SASL needs both --sasl-user and --sasl-password (or BATON_SASL_USER and "
                + "BATON_SASL_PASSWORD); only " + (options.saslUser == null ? "the password" : "the user") + " was given");
        }
        Map<String, String> credentials = Map.of("username", options.saslUser, "password", options.saslPassword);
        Configuration others = jaasOrNull();
        Configuration.setConfiguration(new Configuration() {
            @Override
            public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
                if (SASL_SECTION.equals(name)) {
                    return new AppConfigurationEntry[] {new AppConfigurationEntry(
                        "org.apache.zookeeper.server.auth.DigestLoginModule",
                        AppConfigurationEntry.LoginModuleControlFlag.REQUIRED, credentials)};
                }
                return others == null ? null : others.getAppConfigurationEntry(name);
            }
        });
        config.setProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY, SASL_SECTION);
        // ZooKeeper 3.9 runs in FIPS mode by default, which refuses DIGEST-MD5
        config.setProperty("zookeeper.fips-mode", "false");
    }

    /** The JAAS configuration already in place ({@code -Djava.security.auth.login.config}), or null. */
    private static Configuration jaasOrNull() {
        try {
            return Configuration.getConfiguration();
        } catch (SecurityException noneConfigured) {
            return null;
        }
    }

    private static String readable(String option, String file) {
        if (!Files.isReadable(Path.of(file))) {
            throw new CliExit(ExitCodes.USAGE, option + " names a file that cannot be read: " + file);
        }
        return file;
    }
}
