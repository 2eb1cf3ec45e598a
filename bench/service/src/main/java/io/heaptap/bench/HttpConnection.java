package io.heaptap.bench;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One keep-alive HTTP/1.1 connection over loopback, on a plain socket: the load client's requests cost it
 * a write and a read, so the client takes as little as it can of the two cores the service runs on
 * (java.net.http's client spends several times as much per request). It reads what Tomcat sends: a
 * Content-Length body or a chunked one, and "Connection: close".
 */
final class HttpConnection implements AutoCloseable {
    /** A response body above this is a broken service, not a bigger buffer. */
    private static final int MAX_BODY = 16 << 20;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final StringBuilder line = new StringBuilder(128);
    private byte[] body = new byte[16 << 10];
    private int bodyLength;
    private boolean closeAfter;

    HttpConnection(InetSocketAddress address) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(address, 10_000);
        // a stalled service fails its requests after this rather than hanging the run
        socket.setSoTimeout(60_000);
        in = new BufferedInputStream(socket.getInputStream(), 16 << 10);
        out = socket.getOutputStream();
    }

    /** Sends one whole request and reads the whole response; returns its status code. */
    int exchange(byte[] request) throws IOException {
        out.write(request);
        out.flush();
        String status = readLine();
        if (!status.startsWith("HTTP/1.") || status.length() < 12) {
            throw new IOException("not an HTTP status line: " + status);
        }
        int code = Integer.parseInt(status.substring(9, 12));
        long length = -1;
        boolean chunked = false;
        closeAfter = status.startsWith("HTTP/1.0");
        for (String header = readLine(); !header.isEmpty(); header = readLine()) {
            int colon = header.indexOf(':');
            if (colon < 0) {
                throw new IOException("not an HTTP header: " + header);
            }
            String name = header.substring(0, colon).trim();
            String value = header.substring(colon + 1).trim();
            if (name.equalsIgnoreCase("Content-Length")) {
                length = Long.parseLong(value);
            } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
                chunked = value.toLowerCase(java.util.Locale.ROOT).contains("chunked");
            } else if (name.equalsIgnoreCase("Connection")) {
                closeAfter |= value.equalsIgnoreCase("close");
            }
        }
        bodyLength = 0;
        if (chunked) {
            while (true) {
                String size = readLine();
                int semicolon = size.indexOf(';');
                long n = Long.parseLong((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
                if (n == 0) {
                    while (!readLine().isEmpty()) {
                        // trailers: none expected, read and dropped
                    }
                    break;
                }
                readBody(n);
                readLine();
            }
        } else if (length >= 0) {
            readBody(length);
        } else {
            // no length: the body ends when the server closes
            closeAfter = true;
            for (int b; (b = in.read()) >= 0;) {
                readByte(b);
            }
        }
        return code;
    }

    /** Whether the server ends the connection after this response: the caller opens a new one. */
    boolean closeAfter() {
        return closeAfter;
    }

    /** The first byte of the last response's body, or -1 when it had none. */
    int firstBodyByte() {
        return bodyLength == 0 ? -1 : body[0] & 0xff;
    }

    String body() {
        return new String(body, 0, bodyLength, StandardCharsets.UTF_8);
    }

    private void readBody(long n) throws IOException {
        if (bodyLength + n > MAX_BODY) {
            throw new IOException("response body over " + MAX_BODY + " bytes");
        }
        ensure(bodyLength + (int) n);
        int read = in.readNBytes(body, bodyLength, (int) n);
        if (read < n) {
            throw new EOFException("the body ended after " + read + " of " + n + " bytes");
        }
        bodyLength += read;
    }

    private void readByte(int b) throws IOException {
        if (bodyLength + 1 > MAX_BODY) {
            throw new IOException("response body over " + MAX_BODY + " bytes");
        }
        ensure(bodyLength + 1);
        body[bodyLength++] = (byte) b;
    }

    private void ensure(int capacity) {
        if (capacity > body.length) {
            body = Arrays.copyOf(body, Math.max(capacity, body.length * 2));
        }
    }

    /** One line of the status, headers or chunk sizes (ASCII), without its CR LF. */
    private String readLine() throws IOException {
        line.setLength(0);
        for (int b; (b = in.read()) != '\n';) {
            if (b < 0) {
                throw new EOFException("the connection closed mid-response");
            }
            if (line.length() > 8192) {
                throw new IOException("a response line over 8 KiB");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing a loopback socket: nothing to do about a failure
        }
    }
}
