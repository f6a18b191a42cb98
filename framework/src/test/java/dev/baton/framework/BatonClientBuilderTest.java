package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BatonClientBuilderTest {
    @Test
    void badSettingsAreRejectedAsTheyAreSetNamingTheValue() {
        BatonClient.Builder b = BatonClient.builder();
        assertThatThrownBy(() -> b.sessionTimeout(Duration.ZERO))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("sessionTimeout must be positive, was PT0S");
        assertThatThrownBy(() -> b.connectionTimeout(Duration.ofSeconds(-1)))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("connectionTimeout must be positive, was PT-1S");
        assertThatThrownBy(() -> b.connectString(" "))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("connectString must name at least one host:port, was ' '");
        assertThatThrownBy(() -> b.connectString("host:notaport"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("connectString 'host:notaport' is not host:port");
        assertThatThrownBy(() -> b.namespace("/app"))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("namespace must not start with '/', was '/app'");
        assertThatThrownBy(() -> b.maxRequestBytes(10))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("maxRequestBytes must be at least 1024, was 10");
        assertThatThrownBy(() -> b.authorization("", new byte[0]))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("authorization scheme must not be blank");
    }

    @Test
    void anEmptyElementOrHostInTheConnectStringIsRefusedInsteadOfSkipped() {
        BatonClient.Builder b = BatonClient.builder();
        assertThatThrownBy(() -> b.connectString("a:1,,b:2"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("connectString 'a:1,,b:2' is not host:port[,host:port...][/chroot]: element 2 of 3 is empty");
        assertThatThrownBy(() -> b.connectString("a:1,/app"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageEndingWith("element 2 of 2 is empty");
        assertThatThrownBy(() -> b.connectString("a:1,:2181"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageEndingWith("element 2 (':2181') has no host");
    }

    @Test
    void startFailsAtOnceNamingAHostThatDoesNotResolve() {
        try (BatonClient client = BatonClient.builder().connectString("no-such-host.invalid:2181/app").build()) {
            assertThatThrownBy(client::start)
                .isInstanceOf(BatonException.class)
                .hasMessage("cannot resolve host no-such-host.invalid (connect string 'no-such-host.invalid:2181/app')");
        }
    }

    @Test
    void oneHostThatResolvesIsEnoughToStart() {
        try (BatonClient client = BatonClient.builder().connectString("no-such-host.invalid:2181,localhost:1").build()) {
            client.start(); // nothing listens on localhost:1: the client keeps trying, as for an ensemble not up yet
            assertThat(client.connectionState()).isEqualTo(ConnectionState.SUSPENDED);
        }
    }

    @Test
    void buildWithoutAConnectStringSaysHowToGiveOne() {
        assertThatThrownBy(() -> BatonClient.builder().build())
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("connectString is required");
    }

    @Test
    void severalHostsAndAChrootAreAccepted() {
        BatonClient client = BatonClient.builder().connectString("zk1:2181,zk2:2182,zk3:2183/app/prod").build();
        try {
            assertThat(client.connectionState()).isEqualTo(ConnectionState.SUSPENDED);
            assertThat(client.sessionId()).isZero();
            assertThatThrownBy(() -> client.getData().forPath("/x"))
                .isInstanceOf(ClientNotStartedException.class).hasMessage("getData /x: the client is not started; call start() first");
        } finally {
            client.close();
        }
        assertThatThrownBy(() -> client.getData().forPath("/x"))
            .isInstanceOf(ClientClosedException.class).hasMessage("getData /x: the client is closed");
    }

    @Test
    void errorPoliciesSayWhichStatesMeanLoss() {
        assertThat(ErrorPolicy.STANDARD.isLoss(ConnectionState.SUSPENDED)).isTrue();
        assertThat(ErrorPolicy.SESSION_ONLY.isLoss(ConnectionState.SUSPENDED)).isFalse();
        assertThat(ErrorPolicy.SESSION_ONLY.isLoss(ConnectionState.LOST)).isTrue();
        assertThat(ErrorPolicy.STANDARD.isLoss(ConnectionState.RECONNECTED)).isFalse();
        assertThat(ConnectionState.READ_ONLY.isConnected()).as("reads work on a read-only server").isTrue();
        for (ErrorPolicy policy : ErrorPolicy.values()) {
            assertThat(policy.isLoss(ConnectionState.READ_ONLY)).as(policy + ": READ_ONLY counts as SUSPENDED for holds")
                .isEqualTo(policy.isLoss(ConnectionState.SUSPENDED));
        }
        assertThat(ErrorPolicy.suspendsHolds(ConnectionState.READ_ONLY)).isTrue();
        assertThat(ErrorPolicy.suspendsHolds(ConnectionState.SUSPENDED)).isTrue();
        assertThat(ErrorPolicy.suspendsHolds(ConnectionState.RECONNECTED)).isFalse();
        assertThat(ConnectionState.SUSPENDED.isConnected()).isFalse();
    }
}
