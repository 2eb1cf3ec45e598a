package io.heaptap.agent.jmx;

import java.io.IOException;
import java.io.Serializable;
import java.net.InetAddress;
import java.net.Socket;
import java.rmi.server.RMIClientSocketFactory;

/**
 * The client half of heaptap's own JMX connector, carried inside its RMI stubs: it connects to the
 * loopback address whatever host the stub names. RMI writes {@code java.rmi.server.hostname} or the
 * host's own address into every stub, and heaptap's connector listens on loopback only.
 */
public final class LoopbackSockets implements RMIClientSocketFactory, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return new Socket(InetAddress.getLoopbackAddress(), port);
    }

    // RMI shares one connection pool per equal factory.
    @Override
    public boolean equals(Object other) {
        return other instanceof LoopbackSockets;
    }

    @Override
    public int hashCode() {
        return LoopbackSockets.class.getName().hashCode();
    }
}
