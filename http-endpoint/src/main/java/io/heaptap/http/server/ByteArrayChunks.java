package io.heaptap.http.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.stream.ChunkedInput;

/**
 * An answer's body handed to the connection a chunk at a time, as the client reads: Netty copies what
 * it writes into native (direct) memory, and a whole body written at once sat there, copied, for as
 * long as a client did not read it. Written through {@link io.netty.handler.stream.ChunkedWriteHandler},
 * which asks for the next chunk only while the connection is writable (below its high water mark).
 */
final class ByteArrayChunks implements ChunkedInput<ByteBuf> {
    static final int CHUNK = 16 * 1024;

    private final byte[] body;
    private int offset;

    ByteArrayChunks(byte[] body) {
        this.body = body;
    }

    @Override
    public boolean isEndOfInput() {
        return offset >= body.length;
    }

    @Override
    public void close() {
        offset = body.length;
    }

    @Deprecated
    @Override
    public ByteBuf readChunk(ChannelHandlerContext ctx) {
        return readChunk(ctx.alloc());
    }

    @Override
    public ByteBuf readChunk(ByteBufAllocator allocator) {
        if (isEndOfInput()) {
            return null;
        }
        int n = Math.min(CHUNK, body.length - offset);
        ByteBuf chunk = Unpooled.wrappedBuffer(body, offset, n);  // no copy here; the channel copies it when written
        offset += n;
        return chunk;
    }

    @Override
    public long length() {
        return body.length;
    }

    @Override
    public long progress() {
        return offset;
    }
}
