package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code --kill-grace} is held to the timeout the servers granted each session, whenever its listener runs. */
class GraceCheckTest {
    private static HoldOptions grace(Duration killGrace) {
        HoldOptions options = new HoldOptions();
        options.killGrace = killGrace;
        return options;
    }

    @Test
    void aNewSessionFirstSeenWhileSuspendedIsCheckedAgainstItsGrantedTimeoutOnceConnected() {
        Duration asked = Duration.ofSeconds(30);
        FakeConnection connection = new FakeConnection(1, ConnectionState.CONNECTED, asked);
        BatonClient client = connection.client();
        GraceCheck check = GraceCheck.watch(client, grace(Duration.ofSeconds(2)), asked);
        assertThat(check.refused()).as("2 s fits a third of 30 s").isFalse();

        // session 2 comes, but the connection drops before its listener looks: while suspended, the client
        // answers with the timeout asked for, not the 3 s the servers granted session 2
        connection.session = 2;
        connection.state = ConnectionState.SUSPENDED;
        connection.timeout = asked;
        connection.tell(client, ConnectionState.RECONNECTED, 2);
        connection.tell(client, ConnectionState.SUSPENDED, 2);

        connection.state = ConnectionState.RECONNECTED;
        connection.timeout = Duration.ofSeconds(3);
        connection.tell(client, ConnectionState.RECONNECTED, 2);

        assertThat(check.refused()).as("a 2 s grace refused for session 2, granted 3 s").isTrue();
        assertThat(check.granted()).contains(Duration.ofSeconds(3));
    }
}
