package io.heaptap.http.server;

import io.heaptap.http.route.ErrorResponses;
import io.heaptap.http.route.Response;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpChunkedInput;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

import java.util.List;
import java.util.Map;

/** heaptap's {@link Response} onto the wire, with the headers every response carries. */
final class Responses {
    private Responses() {
    }

    /**
     * Writes the answer: at once when small, else in chunks as the client reads ({@link ByteArrayChunks}).
     * The future completes when the whole body is written, or fails when the connection closes first.
     */
    static ChannelFuture send(Channel channel, Response r, boolean keepAlive, String corsOrigin) {
        boolean whole = r.body().length <= ByteArrayChunks.CHUNK;
        HttpResponse out = whole
                ? new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(r.status()), Unpooled.wrappedBuffer(r.body()))
                : new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(r.status()));
        out.headers().set(HttpHeaderNames.CONTENT_TYPE, r.contentType())
                .setInt(HttpHeaderNames.CONTENT_LENGTH, r.body().length)
                .set("X-Content-Type-Options", "nosniff")
                .set(HttpHeaderNames.CACHE_CONTROL, "no-store")
                .set("Referrer-Policy", "no-referrer");
        if (corsOrigin != null) {
            out.headers().set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, corsOrigin).set(HttpHeaderNames.VARY, "Origin");
        }
        for (Map.Entry<String, String> h : r.headers().entrySet()) {
            // A value of several lines is that header several times (WWW-Authenticate's two challenges).
            out.headers().set(h.getKey(), List.of(h.getValue().split("\n")));
        }
        out.headers().set(HttpHeaderNames.CONNECTION, keepAlive ? HttpHeaderValues.KEEP_ALIVE : HttpHeaderValues.CLOSE);
        ChannelFuture written;
        if (whole) {
            written = channel.writeAndFlush(out);
        } else {
            channel.write(out);
            written = channel.writeAndFlush(new HttpChunkedInput(new ByteArrayChunks(r.body())));
        }
        if (!keepAlive) {
            written.addListener(ChannelFutureListener.CLOSE);
        }
        return written;
    }

    /** An error answer to a connection heaptap will not read from again. */
    static void sendAndClose(Channel channel, int status, String message) {
        if (channel.isActive()) {
            send(channel, ErrorResponses.of(status, message, null), false, null);
        }
    }
}
