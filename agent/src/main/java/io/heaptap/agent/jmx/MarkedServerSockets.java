package io.heaptap.agent.jmx;

import io.heaptap.nativeagent.NativeAgent;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.rmi.server.RMIServerSocketFactory;

/**
 * The server half of heaptap's own JMX connector: a loopback-only listening socket whose connections
 * mark the threads that serve them as heaptap's, so that the RMI work of answering heaptap's CLI
 * (unmarshalling its requests, marshalling the answers: ObjectInputStream, MarshalInputStream,
 * ObjectName) never shows among the application's allocation sites.
 *
 * <p>Why at the socket: RMI serves a connection on one thread from first read to close
 * ({@code TCPTransport.ConnectionHandler}: it reads, dispatches and answers, then closes the socket in
 * a {@code finally} on that thread), and then returns the thread to a pool it shares with every other
 * RMI server in the JVM, the application's included. So the mark is taken when the serving thread
 * first touches the socket and given back when it closes it: the application's own RMI calls served
 * later by the same thread stay the application's. What RMI allocates on that thread before it touches
 * the socket (the thread's new name and, on a new pool thread, its thread-local map: about 100 bytes a
 * connection) stays unmarked.
 */
final class MarkedServerSockets implements RMIServerSocketFactory {
    private static final int BACKLOG = 16;

    @Override
    public ServerSocket createServerSocket(int port) throws IOException {
        return new MarkedServerSocket(port);
    }

    // RMI exports every object of the connector on one listening socket per equal factory.
    @Override
    public boolean equals(Object other) {
        return other instanceof MarkedServerSockets;
    }

    @Override
    public int hashCode() {
        return MarkedServerSockets.class.getName().hashCode();
    }

    private static final class MarkedServerSocket extends ServerSocket {
        MarkedServerSocket(int port) throws IOException {
            super(port, BACKLOG, InetAddress.getLoopbackAddress());
        }

        @Override
        public Socket accept() throws IOException {
            if (isClosed()) {
                throw new SocketException("Socket is closed");
            }
            // RMI gives each listening socket a thread of its own that only accepts: marked for good.
            NativeAgent.heaptapWork();
            Socket socket = new MarkedSocket();
            implAccept(socket);
            return socket;
        }
    }

    /** A connection whose serving thread is heaptap's from its first use of the socket to its close. */
    private static final class MarkedSocket extends Socket {
        private Thread serving;
        private NativeAgent.HeaptapWork mark;

        // RMI's serving thread sets these before it reads (TCPTransport.ConnectionHandler.run0).
        @Override
        public void setTcpNoDelay(boolean on) throws SocketException {
            markServingThread();
            super.setTcpNoDelay(on);
        }

        @Override
        public synchronized void setSoTimeout(int timeout) throws SocketException {
            markServingThread();
            super.setSoTimeout(timeout);
        }

        @Override
        public InputStream getInputStream() throws IOException {
            markServingThread();
            return new FilterInputStream(super.getInputStream()) {
                @Override
                public int read() throws IOException {
                    markServingThread();
                    return super.read();
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    markServingThread();
                    return super.read(b, off, len);
                }
            };
        }

        private synchronized void markServingThread() {
            if (serving == null) {
                mark = NativeAgent.heaptapWork();
                serving = Thread.currentThread();
            }
        }

        @Override
        public void close() throws IOException {
            try {
                super.close();
            } finally {
                unmark();
            }
        }

        // Only the serving thread can give its mark back (JVMTI marks the current thread); RMI closes on it.
        private synchronized void unmark() {
            if (serving == Thread.currentThread()) {
                mark.close();
                serving = null;
                mark = null;
            }
        }
    }
}
