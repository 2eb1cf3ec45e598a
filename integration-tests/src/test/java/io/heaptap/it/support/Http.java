package io.heaptap.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/** A real HTTP client over loopback: the JDK's, plus raw sockets for what a polite client never sends. */
public final class Http {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private final String base;
    private final String token;

    public Http(String baseUrl) {
        this(baseUrl, null);
    }

    public Http(String baseUrl, String token) {
        this.base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.token = token;
    }

    public Http withToken(String t) {
        return new Http(base, t);
    }

    /** The bearer token this client sends, or null. */
    public String token() {
        return token;
    }

    /** The base URL with the token as a Basic password ({@code http://heaptap:TOKEN@host:port/}), as a browser signs in. */
    public String browserUrl() {
        URI u = URI.create(base);
        return "http://heaptap:" + token + "@" + u.getHost() + ":" + u.getPort() + "/";
    }

    public record Reply(int status, java.net.http.HttpHeaders headers, byte[] body) {
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public Optional<String> header(String name) {
            return headers.firstValue(name);
        }

        @Override
        public String toString() {
            return status + " " + (body.length < 2000 ? text() : body.length + " bytes");
        }
    }

    public Reply get(String path, String... headers) {
        return send(builder(path, headers).GET());
    }

    public Reply post(String path, String... headers) {
        return send(builder(path, headers).POST(HttpRequest.BodyPublishers.noBody()));
    }

    public Reply post(String path, byte[] body, String... headers) {
        return send(builder(path, headers).POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    public Reply method(String method, String path) {
        return send(builder(path).method(method, HttpRequest.BodyPublishers.noBody()));
    }

    private HttpRequest.Builder builder(String path, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return b;
    }

    private static Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<byte[]> r = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(r.statusCode(), r.headers(), r.body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Sends raw bytes on a fresh connection and returns whatever comes back until the server closes it. */
    public String raw(byte[] bytes, Duration readTimeout) throws IOException {
        URI u = URI.create(base);
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(u.getHost(), u.getPort()), 5000);
            s.setSoTimeout((int) readTimeout.toMillis());
            OutputStream out = s.getOutputStream();
            out.write(bytes);
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    public URI uri() {
        return URI.create(base + "/");
    }
}
