package io.heaptap.http.server;

import io.heaptap.http.route.Router;
import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.session.HeapBudget;
import io.heaptap.wire.options.ServeOptions;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;

import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One listening Netty server and its threads: one NIO event loop ({@code heaptap-http-loop}), two
 * workers for the routes ({@code heaptap-http-worker-N}, a bounded queue: when it is full the
 * answer is 503), a timer for delayed answers ({@code heaptap-http-timer}), and for a close asked
 * for by a request, {@code heaptap-http-close}. All daemons, all with heaptap's class loader as
 * context loader, all gone after {@link #close}.
 */
public final class RunningServer {
    private static final int WORKERS = 2;
    /** Bytes queued for a connection beyond which it is unwritable and answers wait (see {@link ByteArrayChunks}). */
    static final int HIGH_WATER_MARK = 64 * 1024;
    static final int LOW_WATER_MARK = 32 * 1024;
    private static final int QUEUE = 32;
    /** Set on the workers' threads: a close asked for by a request being answered must not close under it. */
    private static final ThreadLocal<Boolean> ON_A_WORKER = new ThreadLocal<>();

    private final EventLoopGroup loop;
    private final ExecutorService workers;
    private final ScheduledExecutorService timer;
    private final Channel listening;
    private final String url;

    private RunningServer(EventLoopGroup loop, ExecutorService workers, ScheduledExecutorService timer, Channel listening,
                          String url) {
        this.loop = loop;
        this.workers = workers;
        this.timer = timer;
        this.listening = listening;
        this.url = url;
    }

    /** The executors routes may use; created before the routes, which need them. */
    public record Threads(ExecutorService workers, ScheduledExecutorService timer) {
        public static Threads create() {
            ThreadFactory named = named("heaptap-http-worker-", true);
            ThreadFactory marked = r -> named.newThread(() -> {
                ON_A_WORKER.set(Boolean.TRUE);
                r.run();
            });
            ThreadPoolExecutor workers = new ThreadPoolExecutor(WORKERS, WORKERS, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE),
                    marked, new ThreadPoolExecutor.AbortPolicy());
            ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, named("heaptap-http-timer", false));
            timer.setRemoveOnCancelPolicy(true);
            return new Threads(workers, timer);
        }

        void shutdown() {
            workers.shutdownNow();
            timer.shutdownNow();
        }
    }

    /**
     * Binds and starts serving, or fails with an {@link IllegalStateException} that says why, having
     * released everything it had started.
     */
    public static RunningServer start(ServeOptions options, String token, Router router, Threads threads, HeapBudget budget) {
        EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, named("heaptap-http-loop", false), NioIoHandler.newFactory());
        try {
            Channel channel = new ServerBootstrap()
                    .group(loop)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 64)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(LOW_WATER_MARK, HIGH_WATER_MARK))
                    // Unpooled: a buffer's native memory is freed when it is released, not kept in a pool's chunks
                    // after the connections that needed it have gone (this endpoint needs no pooling's speed).
                    .childOption(ChannelOption.ALLOCATOR, new UnpooledByteBufAllocator(true))
                    // A client that shuts its sending side after a whole request still gets its answer (Dispatcher).
                    .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                    .childHandler(new ChannelSetup(router, new AccessCheck(token, options.allowOrigin()), threads.workers(), budget))
                    .bind(new InetSocketAddress(options.bind(), options.port()))
                    .sync()
                    .channel();
            InetSocketAddress bound = (InetSocketAddress) channel.localAddress();
            return new RunningServer(loop, threads.workers(), threads.timer(), channel, url(options.bind(), bound.getPort()));
        } catch (Exception e) {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            threads.shutdown();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException(bindFailure(options, e));
        }
    }

    public String url() {
        return url;
    }

    /**
     * Stops serving, then runs {@code afterwards}. Asked for by a request being answered (Jolokia's exec
     * of {@code stopServing}, on a worker), it returns at once and closes on a thread of its own once that
     * answer has gone out: shutting the loop down under the request dropped its answer, and the client saw
     * the connection close with nothing.
     */
    public void close(Runnable afterwards) {
        listening.close().syncUninterruptibly();  // no new connection from here on
        if (!Boolean.TRUE.equals(ON_A_WORKER.get())) {
            shutDown();
            afterwards.run();
            return;
        }
        named("heaptap-http-close", false).newThread(() -> {
            workers.shutdown();  // the asking request ends, and hands its answer's write to the loop
            try {
                workers.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            // The one loop thread runs its tasks in order: once this one has run, so has that write.
            loop.submit(() -> { }).awaitUninterruptibly(2, TimeUnit.SECONDS);
            shutDown();
            afterwards.run();
        }).start();
    }

    private void shutDown() {
        loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownNow();
        timer.shutdownNow();
    }

    private static String bindFailure(ServeOptions options, Exception e) {
        String where = options.bind() + ":" + options.port();
        if (e instanceof BindException || (e.getMessage() != null && e.getMessage().contains("Address already in use"))) {
            return "cannot serve on " + where + ": the port is already in use (choose another with --port, or --port 0 for any free one)";
        }
        return "cannot serve on " + where + ": " + e.getMessage();
    }

    private static String url(String bind, int port) {
        String host = bind.contains(":") ? "[" + bind + "]" : bind;
        return "http://" + host + ":" + port + "/";
    }

    private static ThreadFactory named(String name, boolean numbered) {
        ClassLoader heaptap = RunningServer.class.getClassLoader();
        AtomicInteger n = new AtomicInteger();
        return r -> {
            // heaptap's own work: its allocations stay out of the application's profile.
            Thread t = new Thread(NativeAgent.heaptapThread(r), numbered ? name + n.incrementAndGet() : name);
            t.setDaemon(true);
            t.setContextClassLoader(heaptap);
            return t;
        };
    }
}
