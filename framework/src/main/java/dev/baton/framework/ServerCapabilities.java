package dev.baton.framework;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the ZooKeeper server a client is connected to supports, as the client learned it
 * ({@link BatonClient#serverCapabilities()}).
 *
 * <p>How it is learned: at the first connection of each session the client asks the server for
 * its version with the four-letter word {@code srvr} (answered unless the server's
 * {@code 4lw.commands.whitelist} leaves it out; {@code srvr} is in ZooKeeper's default list) and
 * derives every feature that comes with a version from it. Where the version cannot be learned,
 * each feature is probed with a request that creates nothing: a server that does not know a
 * request answers "unimplemented". Whether TTL nodes are on is a server setting, not a version,
 * so it is always probed (a TTL create under a parent that does not exist: refused as
 * "unimplemented" when TTL nodes are off, as "no node" when they are on). Learning runs in the
 * background and never fails {@link BatonClient#start()}; what could not be learned stays
 * unknown.
 *
 * <p>Each feature is in one of three states: {@link #supports supported}, {@link #lacks
 * lacking}, or neither (unknown). Recipes take a fast path only where a feature is supported and
 * the plain path otherwise, and where a feature they cannot do without is refused they fail with
 * {@link UnsupportedByServerException}, which names the server's version and what to change.
 *
 * <p>Caveats: the value describes one server. In a rolling upgrade the servers of one ensemble
 * differ, and a session that moves to another server keeps what it learned at its start; a
 * recipe that then meets a refusal falls back (or says so) as if the feature were unknown.
 * {@link BatonClient.Builder#assumeServerCapabilities} fixes the value instead (for example to
 * the oldest server of a fleet being upgraded).
 *
 * <pre>{@code
 * ServerCapabilities server = client.serverCapabilities();
 * if (server.lacks(ServerCapabilities.Feature.TTL_NODES)) {
 *     log.warn("TTL nodes are off on {}: {}", server.version().orElse("the server"),
 *         ServerCapabilities.Feature.TTL_NODES.requirement());
 * }
 * }</pre>
 *
 * @param version the server's version ({@code "3.9.5"}), if learned
 * @param supported the features known to be supported
 * @param lacking the features known to be missing or switched off
 */
public record ServerCapabilities(Optional<String> version, Set<Feature> supported, Set<Feature> lacking) {
    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)");

    /** A server feature some recipe has a fast path for, or needs. */
    public enum Feature {
        /** {@code create2}: a create's reply carries the new node's stat (its czxid, the fencing token). ZooKeeper 3.5.0. */
        CREATE2(3, 5, 0, null),
        /** TTL nodes ({@code PERSISTENT_WITH_TTL}): ZooKeeper 3.5.3, off unless the server setting turns them on. */
        TTL_NODES(3, 5, 3, "zookeeper.extendedTypesEnabled=true"),
        /** Persistent and persistent recursive watches ({@code addWatch}): ZooKeeper 3.6.0. */
        PERSISTENT_RECURSIVE_WATCHES(3, 6, 0, null),
        /** A {@code multi} of reads ({@code getData}, {@code getChildren}) in one request: ZooKeeper 3.6.0. */
        MULTI_READ(3, 6, 0, null),
        /** {@code getEphemerals(prefix)}: the session's own ephemeral nodes under a prefix. ZooKeeper 3.6.0. */
        GET_EPHEMERALS(3, 6, 0, null);

        private final int major;
        private final int minor;
        private final int patch;
        private final String setting;

        Feature(int major, int minor, int patch, String setting) {
            this.major = major;
            this.minor = minor;
            this.patch = patch;
            this.setting = setting;
        }

        /** {@return the first ZooKeeper release with this feature, such as {@code "3.6.0"}} */
        public String since() {
            return major + "." + minor + "." + patch;
        }

        /** {@return the server setting that must be on as well ({@code "zookeeper.extendedTypesEnabled=true"}), if any} */
        public Optional<String> setting() {
            return Optional.ofNullable(setting);
        }

        /** {@return what a server needs for this feature, in words: the release and the setting} */
        public String requirement() {
            return "ZooKeeper " + since() + " or later" + (setting == null ? "" : ", started with -D" + setting);
        }

        /** Whether a server of {@code version} has this feature in its code (its setting aside). */
        boolean inVersion(int[] version) {
            return compare(version, new int[] {major, minor, patch}) >= 0;
        }
    }

    /**
     * Checks the value.
     *
     * @param version the server's version ({@code "3.9.5"}), if learned
     * @param supported the features known to be supported
     * @param lacking the features known to be missing or switched off
     * @throws IllegalArgumentException if a feature is both supported and lacking, or the version is
     *     not {@code major.minor.patch[...]}
     */
    public ServerCapabilities {
        Objects.requireNonNull(version, "version");
        version.ifPresent(ServerCapabilities::parse);
        supported = frozen(supported);
        lacking = frozen(lacking);
        for (Feature feature : supported) {
            if (lacking.contains(feature)) {
                throw new IllegalArgumentException(feature + " cannot be both supported and lacking");
            }
        }
    }

    /** {@return nothing known: the value before anything is learned} */
    public static ServerCapabilities unknown() {
        return new ServerCapabilities(Optional.empty(), Set.of(), Set.of());
    }

    /**
     * {@return what a server of {@code version} supports by its release alone}: every feature is
     * supported or lacking, except TTL nodes when the release has them, which stay unknown (a
     * setting decides).
     *
     * @param version a ZooKeeper version such as {@code "3.8.4"} (anything after {@code major.minor.patch} is ignored)
     * @throws IllegalArgumentException if {@code version} does not start with {@code major.minor.patch}
     */
    public static ServerCapabilities ofVersion(String version) {
        int[] parsed = parse(version);
        Set<Feature> supported = EnumSet.noneOf(Feature.class);
        Set<Feature> lacking = EnumSet.noneOf(Feature.class);
        for (Feature feature : Feature.values()) {
            if (!feature.inVersion(parsed)) {
                lacking.add(feature);
            } else if (feature.setting == null) {
                supported.add(feature);
            }
        }
        return new ServerCapabilities(Optional.of(version), supported, lacking);
    }

    /**
     * {@return whether the feature is known to be supported}
     *
     * @param feature the feature
     */
    public boolean supports(Feature feature) {
        return supported.contains(feature);
    }

    /**
     * {@return whether the feature is known to be missing or switched off}
     *
     * @param feature the feature
     */
    public boolean lacks(Feature feature) {
        return lacking.contains(feature);
    }

    /**
     * {@return a copy that also knows whether {@code feature} is supported (a later answer replaces an earlier one)}
     *
     * @param feature the feature
     * @param isSupported whether the server supports it
     */
    public ServerCapabilities with(Feature feature, boolean isSupported) {
        Set<Feature> s = EnumSet.noneOf(Feature.class);
        s.addAll(supported);
        Set<Feature> l = EnumSet.noneOf(Feature.class);
        l.addAll(lacking);
        (isSupported ? l : s).remove(feature);
        (isSupported ? s : l).add(feature);
        return new ServerCapabilities(version, s, l);
    }

    /**
     * {@return whether the server sends child-list events to persistent recursive watchers}: servers before
     * 3.9.0 do when the same session also has a child watch below the recursive one (the 3.9 client drops
     * them itself; an older client jar may pass them on). Baton drops them for recursive watchers whatever the server (a recursive
     * watch promises no child-list events); this says whether that filter has work to do. True when the
     * version is unknown.
     */
    public boolean sendsChildEventsToRecursiveWatchers() {
        return version.map(v -> compare(parse(v), new int[] {3, 9, 0}) < 0).orElse(true);
    }

    /** {@return a one-line description: version, supported and lacking features} */
    @Override
    public String toString() {
        return "ZooKeeper " + version.orElse("(version unknown)") + ", supports " + supported + ", lacks " + lacking;
    }

    /** {@return the server as an error message names it: {@code "ZooKeeper 3.9.5"} or {@code "a ZooKeeper server of unknown version"}} */
    String serverName() {
        return version.map(v -> "ZooKeeper " + v).orElse("a ZooKeeper server of unknown version");
    }

    /** An unmodifiable copy in declaration order (so that {@link #toString} is stable). */
    private static Set<Feature> frozen(Set<Feature> features) {
        Set<Feature> copy = EnumSet.noneOf(Feature.class);
        copy.addAll(features);
        return Collections.unmodifiableSet(copy);
    }

    private static int compare(int[] a, int[] b) {
        for (int i = 0; i < 3; i++) {
            if (a[i] != b[i]) {
                return Integer.compare(a[i], b[i]);
            }
        }
        return 0;
    }

    private static int[] parse(String version) {
        Matcher m = VERSION.matcher(Objects.requireNonNull(version, "version"));
        if (!m.lookingAt()) {
            throw new IllegalArgumentException("a ZooKeeper version must start with major.minor.patch, such as 3.9.5, was '"
                + version + "'");
        }
        return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))};
    }
}
