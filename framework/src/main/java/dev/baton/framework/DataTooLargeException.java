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

    /** Size of the data, in bytes. */
    private final int size;
    /** The largest data the request could carry, in bytes. */
    private final int limit;

    /**
     * {@code operation} on {@code path} with {@code size} bytes of data, where the request could carry {@code
     * limit}.
     *
     * @param operation the operation refused ({@code "create"}, {@code "setData"}, ...)
     * @param path the path the operation was given
     * @param size the data's size, in bytes
     * @param limit the largest data the request could carry, in bytes
     */
    public DataTooLargeException(String operation, String path, int size, int limit) {
        super(KeeperException.Code.BADARGUMENTS, operation, path,
            "data is " + size + " bytes; the server accepts at most " + limit + " bytes in one request", null);
        this.size = size;
        this.limit = limit;
    }

    /** {@return size of the data, in bytes} */
    public int size() {
        return size;
    }

    /** {@return the largest data this request could carry, in bytes} */
    public int limit() {
        return limit;
    }
}
