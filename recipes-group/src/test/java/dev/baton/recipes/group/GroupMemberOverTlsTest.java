package dev.baton.recipes.group;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestSecurity;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link GroupMemberTest} again over TLS: the servers serve TLS only and require client certificates,
 * every client is {@code x509:CN=recipes} and makes its nodes with {@code CREATOR_ALL}
 * ({@code @EnsembleTest(tls = true)}, test-support's {@code TestSecurity}). A client of another identity can neither list,
 * read, change nor remove a member. Runs with
 * {@code -Ptls} (docs/security.md).
 */
@Tag("tls")
@EnsembleTest(tls = true)
class GroupMemberOverTlsTest extends GroupMemberTest {
    private static final Duration ACL_WAIT = Duration.ofSeconds(20);

    @Test
    void anotherIdentityCanNeitherListNorRemoveAMember(BatonClient owner) throws InterruptedException {
        try (GroupMember member = new GroupMember(owner, "/tls-acl/group", "a", "payload".getBytes(UTF_8))) {
            member.start();
            assertThat(member.awaitJoined(ACL_WAIT)).isTrue();
            try (BatonClient intruder = TestSecurity.client("intruder")) {
                assertThat(TestSecurity.assertEveryNodeRefused(owner, intruder, "/tls-acl")).isGreaterThan(2);
            }
            assertThat(member.getCurrentMembers()).containsOnlyKeys("a");
        }
    }
}
