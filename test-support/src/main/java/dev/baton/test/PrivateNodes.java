package dev.baton.test;

import dev.baton.framework.AclProvider;
import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Predicate;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * The ACL shape docs/security.md calls creator-only contender nodes, for tests of several
 * identities sharing a recipe: the recipe's folders open to everyone for create, list and delete,
 * every other node its creator's alone; and started clients of named digest identities using it.
 */
public final class PrivateNodes {
    /** A recipe's folder (and the parents made on the way): create, list and delete for everyone. */
    public static final List<ACL> OPEN_FOLDER = List.of(new ACL(ZooDefs.Perms.CREATE | ZooDefs.Perms.READ | ZooDefs.Perms.DELETE,
        ZooDefs.Ids.ANYONE_ID_UNSAFE));

    private PrivateNodes() {
    }

    /**
     * Folders open, every other node to its creator only. The provider is asked with the path a
     * create names: for a recipe's contender, before the protection and the sequence number
     * ({@code <folder>/lock-}).
     *
     * @param isFolder which paths are folders
     * @return the provider
     */
    public static AclProvider provider(Predicate<String> isFolder) {
        return path -> isFolder.test(path) ? OPEN_FOLDER : ZooDefs.Ids.CREATOR_ALL_ACL;
    }

    /**
     * A started client authenticated as digest identity {@code user} (password "secret"), creating
     * nodes with {@code acl}.
     *
     * @param ensemble the servers
     * @param user the identity
     * @param acl the ACL of the nodes it creates
     * @return the client, connected
     */
    public static BatonClient client(EmbeddedEnsemble ensemble, String user, AclProvider acl) {
        return TestClients.started(BatonClient.builder().connectString(ensemble.connectString())
            .authorization("digest", (user + ":secret").getBytes(StandardCharsets.UTF_8)).aclProvider(acl));
    }
}
