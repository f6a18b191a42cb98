package dev.baton.server;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.ZonedDateTime;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * A throw-away certificate authority for TLS on the loopback address: made for one test run or one
 * local {@code baton server --tls}, never checked in, never for production.
 *
 * <p>{@link #create(Path)} makes a CA, a server certificate valid for {@code 127.0.0.1} and
 * {@code localhost} (so clients keep hostname verification on), and a trust store holding the CA,
 * as PKCS#12 files in one folder, all sealed with one random password ({@link #password()}).
 * {@link #clientKeyStore(String)} issues a client certificate with the subject {@code CN=<name>}
 * on first use: with ZooKeeper's x509 authentication provider that subject is the client's
 * identity ({@link #x509Id(String)}), the id a {@code CREATOR_ALL} ACL records.
 *
 * <p>Keys are EC P-256 (fast to make: the whole set takes milliseconds, not the seconds of
 * {@code keytool} runs), certificates are written with a small DER encoder and signed with
 * SHA256withECDSA; the JDK reads them back and checks each signature before storing it.
 * Certificates are valid from an hour ago for two years.
 *
 * <p>Guarantees and caveats: the CA's private key lives only in this object (it is not written),
 * so more client certificates can be issued only while it lives. The password is in the clear in
 * this object and in whatever is configured with it; the stores protect nothing outside a test.
 *
 * <pre>{@code
 * LocalCertificates tls = LocalCertificates.create(dir);
 * ZKClientConfig alice = tls.clientConfig("alice");   // TLS, authenticated as CN=alice
 * }</pre>
 */
public final class LocalCertificates {
    /** Key and trust store type: PKCS#12, which every JDK and ZooKeeper read. */
    public static final String STORE_TYPE = "PKCS12";
    private static final String SIGNATURE = "SHA256withECDSA";
    private static final String ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    private final Path dir;
    private final String password;
    private final KeyPair caKeys;
    private final X509Certificate ca;
    private final SecureRandom random;
    private final Map<String, Path> clients = new ConcurrentHashMap<>();

    private LocalCertificates(Path dir, String password, KeyPair caKeys, X509Certificate ca, SecureRandom random) {
        this.dir = dir;
        this.password = password;
        this.caKeys = caKeys;
        this.ca = ca;
        this.random = random;
    }

    /**
     * Makes a CA, the server's key store and the trust store in {@code dir} (created if missing).
     *
     * @param dir the folder for {@code ca-truststore.p12}, {@code server-keystore.p12} and the
     *     client key stores
     * @return the certificates, with the CA ready to issue client certificates
     * @throws UncheckedIOException if the folder or a store cannot be written
     */
    public static LocalCertificates create(Path dir) {
        Objects.requireNonNull(dir, "dir");
        SecureRandom random = new SecureRandom();
        byte[] secret = new byte[12];
        random.nextBytes(secret);
        String password = HexFormat.of().formatHex(secret);
        KeyPair caKeys = newKeyPair();
        X509Certificate ca = sign("CN=Baton local CA", caKeys.getPublic(), true, "CN=Baton local CA", caKeys.getPrivate(), random);
        LocalCertificates tls = new LocalCertificates(dir.toAbsolutePath(), password, caKeys, ca, random);
        try {
            Files.createDirectories(dir);
            KeyStore trust = emptyStore();
            trust.setCertificateEntry("baton-local-ca", ca);
            tls.write(trust, tls.trustStore());
            tls.writeIdentity("server", "CN=baton-server", tls.serverKeyStore());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the TLS stores in " + dir + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make the TLS stores: " + e.getMessage(), e);
        }
        return tls;
    }

    /** {@return the folder holding every store} */
    public Path dir() {
        return dir;
    }

    /** {@return the trust store (PKCS#12) holding the CA: clients and servers trust what it signed} */
    public Path trustStore() {
        return dir.resolve("ca-truststore.p12");
    }

    /** {@return the servers' key store (PKCS#12): a certificate for 127.0.0.1 and localhost} */
    public Path serverKeyStore() {
        return dir.resolve("server-keystore.p12");
    }

    /** {@return the password of every store (and every key in them)} */
    public String password() {
        return password;
    }

    /**
     * {@return the key store of client {@code name}, issued on first call: a certificate with subject
     * {@code CN=<name>} signed by this CA}
     *
     * @param name the client's name: letters, digits, {@code .}, {@code _} and {@code -}, up to 64
     * @throws IllegalArgumentException if the name has other characters
     */
    public Path clientKeyStore(String name) {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a client name is 1 to 64 letters, digits, '.', '_' or '-' starting with a "
                + "letter or digit, was '" + name + "'");
        }
        return clients.computeIfAbsent(name, n -> {
            Path store = dir.resolve("client-" + n + "-keystore.p12");
            try {
                writeIdentity(n, "CN=" + n, store);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + store + ": " + e.getMessage(), e);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("cannot issue a certificate for " + n + ": " + e.getMessage(), e);
            }
            return store;
        });
    }

    /**
     * {@return the id ZooKeeper's x509 authentication provider gives client {@code name}: its
     * certificate's subject, {@code CN=<name>}} Use it in an ACL: {@code new Id("x509", x509Id("alice"))}.
     *
     * @param name the client's name, as given to {@link #clientKeyStore(String)}
     */
    public static String x509Id(String name) {
        return "CN=" + Objects.requireNonNull(name, "name");
    }

    /**
     * {@return a ZooKeeper client configuration for TLS that trusts this CA and presents client
     * {@code name}'s certificate} Pass it to {@code BatonClient.Builder.zkClientConfig}.
     *
     * @param name the client's name (its certificate is issued on first use)
     */
    public ZKClientConfig clientConfig(String name) {
        ZKClientConfig config = trustingClientConfig();
        config.setProperty("zookeeper.ssl.keyStore.location", clientKeyStore(name).toString());
        config.setProperty("zookeeper.ssl.keyStore.password", password);
        config.setProperty("zookeeper.ssl.keyStore.type", STORE_TYPE);
        return config;
    }

    /**
     * {@return a ZooKeeper client configuration for TLS that trusts this CA and presents no
     * certificate} A server that requires client certificates refuses it.
     */
    public ZKClientConfig trustingClientConfig() {
        ZKClientConfig config = new ZKClientConfig();
        config.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
        config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, "org.apache.zookeeper.ClientCnxnSocketNetty");
        config.setProperty("zookeeper.ssl.trustStore.location", trustStore().toString());
        config.setProperty("zookeeper.ssl.trustStore.password", password);
        config.setProperty("zookeeper.ssl.trustStore.type", STORE_TYPE);
        return config;
    }

    /**
     * {@return the system properties a ZooKeeper server needs to serve TLS with these certificates}
     * The server presents {@link #serverKeyStore()} and trusts client certificates this CA signed.
     */
    public Map<String, String> serverProperties() {
        return Map.of(
            "zookeeper.ssl.keyStore.location", serverKeyStore().toString(),
            "zookeeper.ssl.keyStore.password", password,
            "zookeeper.ssl.keyStore.type", STORE_TYPE,
            "zookeeper.ssl.trustStore.location", trustStore().toString(),
            "zookeeper.ssl.trustStore.password", password,
            "zookeeper.ssl.trustStore.type", STORE_TYPE);
    }

    /**
     * {@return a TLS context presenting the server's certificate and trusting this CA} For probes
     * of a TLS port (four-letter words) from the process that made the certificates.
     */
    SSLContext serverContext() {
        try {
            KeyStore keys = load(serverKeyStore());
            KeyManagerFactory km = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            km.init(keys, password.toCharArray());
            KeyStore trust = emptyStore();
            trust.setCertificateEntry("baton-local-ca", ca);
            TrustManagerFactory tm = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tm.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(km.getKeyManagers(), tm.getTrustManagers(), random);
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot load the server's key store: " + e.getMessage(), e);
        }
    }

    private void writeIdentity(String alias, String subject, Path store) throws IOException, GeneralSecurityException {
        KeyPair keys = newKeyPair();
        X509Certificate cert = sign(subject, keys.getPublic(), false, "CN=Baton local CA", caKeys.getPrivate(), random);
        cert.verify(caKeys.getPublic());
        KeyStore keyStore = emptyStore();
        keyStore.setKeyEntry(alias, keys.getPrivate(), password.toCharArray(), new Certificate[] {cert, ca});
        write(keyStore, store);
    }

    private void write(KeyStore store, Path file) throws IOException, GeneralSecurityException {
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, password.toCharArray());
        }
    }

    private KeyStore load(Path file) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance(STORE_TYPE);
        try (var in = Files.newInputStream(file)) {
            store.load(in, password.toCharArray());
        }
        return store;
    }

    private static KeyStore emptyStore() throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance(STORE_TYPE);
        store.load(null, null);
        return store;
    }

    private static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK cannot make EC P-256 keys: " + e.getMessage(), e);
        }
    }

    /**
     * An X.509 v3 certificate for {@code subjectKey}, signed with {@code issuerKey}. A CA gets
     * basic constraints {@code CA:true}; a leaf gets subject alternative names 127.0.0.1 and
     * localhost, which hostname verification of a loopback connection checks.
     */
    private static X509Certificate sign(String subject, PublicKey subjectKey, boolean ca, String issuer, PrivateKey issuerKey,
                                        SecureRandom random) {
        ZonedDateTime now = ZonedDateTime.now();
        byte[] algorithm = Der.sequence(Der.oid(ECDSA_WITH_SHA256));
        byte[] extensions = ca
            ? extension("2.5.29.19", true, Der.sequence(Der.bool(true)))
            : extension("2.5.29.17", false, Der.sequence(
                Der.implicit(7, InetAddress.getLoopbackAddress().getAddress()),
                Der.implicit(2, "localhost".getBytes(StandardCharsets.US_ASCII))));
        byte[] tbs = Der.sequence(
            Der.explicit(0, Der.integer(BigInteger.TWO)),                 // version 3
            Der.integer(new BigInteger(63, random).add(BigInteger.ONE)),  // positive serial
            algorithm,
            name(issuer),
            Der.sequence(Der.utcTime(now.minusHours(1)), Der.utcTime(now.plusYears(2))),
            name(subject),
            subjectKey.getEncoded(),                                       // SubjectPublicKeyInfo, already DER
            Der.explicit(3, Der.sequence(extensions)));
        try {
            Signature signer = Signature.getInstance(SIGNATURE);
            signer.initSign(issuerKey, random);
            signer.update(tbs);
            byte[] certificate = Der.sequence(tbs, algorithm, Der.bits(signer.sign()));
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(certificate));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign a certificate for " + subject + ": " + e.getMessage(), e);
        }
    }

    /** A name of one common-name attribute: {@code CN=value}. */
    private static byte[] name(String cn) {
        String value = cn.substring("CN=".length());
        return Der.sequence(Der.set(Der.sequence(Der.oid("2.5.4.3"), Der.utf8(value))));
    }

    private static byte[] extension(String oid, boolean critical, byte[] value) {
        return critical
            ? Der.sequence(Der.oid(oid), Der.bool(true), Der.octets(value))
            : Der.sequence(Der.oid(oid), Der.octets(value));
    }
}
