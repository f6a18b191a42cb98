package dev.baton.framework;

import org.apache.zookeeper.KeeperException;

/**
 * The data would make a request larger than the server accepts ({@code jute.maxbuffer}, 1 MiB by
 * default). Raised before anything is sent: a ZooKeeper server closes the connection of a client
 * that sends an oversized packet, which the client would otherwise see as a connection loss and
 * retry forever.
 */
public class DataTooLargeException extends BatonException {
    private static final long serialVersionUID = 1L;

    private final int size;
    private final int limit;

    public DataTooLargeException(String operation, String path, int size, int limit) {
        super(KeeperException.Code.BADARGUMENTS, operation, path,
            "data is " + size + " bytes; the server accepts at most " + limit + " bytes in one request", null);
        this.size = size;
        this.limit = limit;
    }

    /** Size of the data, in bytes. */
    public int size() {
        return size;
    }

    /** The largest data this request could carry, in bytes. */
    public int limit() {
        return limit;
    }
}
