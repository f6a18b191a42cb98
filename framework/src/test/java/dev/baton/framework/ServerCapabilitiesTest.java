package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.ServerCapabilities.Feature;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ServerCapabilitiesTest {

    @Test
    void aReleaseDecidesEveryFeatureButTtlNodesWhichItsSettingDecides() {
        ServerCapabilities modern = ServerCapabilities.ofVersion("3.9.5-293c895a");
        assertThat(modern.version()).contains("3.9.5-293c895a");
        assertThat(modern.supported()).containsExactlyInAnyOrder(Feature.CREATE2, Feature.PERSISTENT_RECURSIVE_WATCHES,
            Feature.MULTI_READ, Feature.GET_EPHEMERALS);
        assertThat(modern.lacking()).isEmpty();
        assertThat(modern.supports(Feature.TTL_NODES) || modern.lacks(Feature.TTL_NODES)).as("TTL nodes: a setting").isFalse();

        ServerCapabilities old = ServerCapabilities.ofVersion("3.5.10");
        assertThat(old.supported()).containsExactly(Feature.CREATE2);
        assertThat(old.lacking()).containsExactlyInAnyOrder(Feature.PERSISTENT_RECURSIVE_WATCHES, Feature.MULTI_READ,
            Feature.GET_EPHEMERALS);

        ServerCapabilities ancient = ServerCapabilities.ofVersion("3.4.14");
        assertThat(ancient.lacking()).containsExactlyInAnyOrder(Feature.values());
        assertThat(ServerCapabilities.ofVersion("3.5.2").lacks(Feature.TTL_NODES)).isTrue();
        assertThat(ServerCapabilities.ofVersion("3.6.0").supports(Feature.GET_EPHEMERALS)).isTrue();
        assertThat(ServerCapabilities.ofVersion("4.0.0").supports(Feature.MULTI_READ)).isTrue();
    }

    @Test
    void aLaterAnswerReplacesAnEarlierOne() {
        ServerCapabilities learned = ServerCapabilities.ofVersion("3.9.5").with(Feature.TTL_NODES, true);
        assertThat(learned.supports(Feature.TTL_NODES)).isTrue();
        ServerCapabilities refused = learned.with(Feature.TTL_NODES, false);
        assertThat(refused.lacks(Feature.TTL_NODES)).isTrue();
        assertThat(refused.supports(Feature.TTL_NODES)).isFalse();
        assertThat(learned.supports(Feature.TTL_NODES)).as("the value is immutable").isTrue();
    }

    @Test
    void nothingIsKnownBeforeAnythingIsLearned() {
        ServerCapabilities unknown = ServerCapabilities.unknown();
        for (Feature feature : Feature.values()) {
            assertThat(unknown.supports(feature)).isFalse();
            assertThat(unknown.lacks(feature)).isFalse();
        }
        assertThat(unknown.version()).isEmpty();
        assertThat(unknown.sendsChildEventsToRecursiveWatchers()).as("unknown: assume the quirk").isTrue();
    }

    @Test
    void serversBefore39SendChildEventsToRecursiveWatchers() {
        assertThat(ServerCapabilities.ofVersion("3.8.4").sendsChildEventsToRecursiveWatchers()).isTrue();
        assertThat(ServerCapabilities.ofVersion("3.6.0").sendsChildEventsToRecursiveWatchers()).isTrue();
        assertThat(ServerCapabilities.ofVersion("3.9.0").sendsChildEventsToRecursiveWatchers()).isFalse();
        assertThat(ServerCapabilities.ofVersion("3.9.5").sendsChildEventsToRecursiveWatchers()).isFalse();
    }

    @Test
    void badValuesAreRefusedWithWhatWasGiven() {
        assertThatThrownBy(() -> ServerCapabilities.ofVersion("three.nine"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("a ZooKeeper version must start with major.minor.patch, such as 3.9.5, was 'three.nine'");
        assertThatThrownBy(() -> new ServerCapabilities(Optional.empty(), Set.of(Feature.MULTI_READ), EnumSet.of(Feature.MULTI_READ)))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("MULTI_READ cannot be both supported and lacking");
    }

    @Test
    void aRefusalNamesTheServerAndWhatItNeeds() {
        ServerCapabilities server = ServerCapabilities.ofVersion("3.9.5").with(Feature.TTL_NODES, false);
        UnsupportedByServerException ttl = new UnsupportedByServerException(Feature.TTL_NODES, server, "create", "/jobs/a", null);
        assertThat(ttl).hasMessage("create /jobs/a: ZooKeeper 3.9.5 refuses TTL nodes; they need ZooKeeper 3.5.3 or later, "
            + "started with -Dzookeeper.extendedTypesEnabled=true");
        assertThat(ttl.code()).isEqualTo(org.apache.zookeeper.KeeperException.Code.UNIMPLEMENTED);
        assertThat(ttl).isInstanceOf(ZooKeeperException.class);
        assertThat(ttl.serverVersion()).isEqualTo("3.9.5");

        UnsupportedByServerException watch = new UnsupportedByServerException(Feature.PERSISTENT_RECURSIVE_WATCHES,
            ServerCapabilities.unknown(), "addWatch", "/cache", null);
        assertThat(watch).hasMessage("addWatch /cache: a ZooKeeper server of unknown version refuses persistent watches (addWatch); "
            + "they need ZooKeeper 3.6.0 or later");
        assertThat(watch.serverVersion()).isNull();
    }
}
