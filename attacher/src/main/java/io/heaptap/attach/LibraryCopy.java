package io.heaptap.attach;

import io.heaptap.nativeagent.NativeAgentException;
import io.heaptap.nativeagent.NativeLibrary;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * libheaptap.so written out for one attach, on another thread beside the attach handshake, unless
 * the target has it mapped already. Concurrent first attaches all name the same file, which the JVM
 * maps once. Whoever makes one calls {@link #release} when the attach is over.
 */
final class LibraryCopy {
    private final long pid;
    private final CompletableFuture<NativeLibrary.Extracted> library;

    private LibraryCopy(long pid, CompletableFuture<NativeLibrary.Extracted> library) {
        this.pid = pid;
        this.library = library;
    }

    /** Starts extracting, unless the target has the library mapped already (then the future holds null). */
    static LibraryCopy ahead(Target target) {
        if (ProcFiles.heaptapLoaded(target.pid()).orElse(false)) {
            return new LibraryCopy(target.pid(), CompletableFuture.completedFuture(null));
        }
        return new LibraryCopy(target.pid(), CompletableFuture.supplyAsync(() -> {
            try {
                return extract(target.pid());
            } catch (NativeAgentException | AttachException e) {
                throw new CompletionException(e);
            }
        }));
    }

    /** The extracted library, waiting for it (or extracting it now, if the target had it mapped when this began). */
    NativeLibrary.Extracted get() throws NativeAgentException {
        try {
            NativeLibrary.Extracted lib = library.join();
            return lib != null ? lib : extract(pid);
        } catch (CompletionException e) {
            if (e.getCause() instanceof NativeAgentException n) {
                throw n;
            }
            if (e.getCause() instanceof AttachException a) {
                throw a;
            }
            throw e;
        }
    }

    /** Deletes a one-off copy of the library once the attach is over (loaded or not). */
    void release() {
        library.thenAccept(lib -> {
            if (lib != null) {
                lib.loaded();
            }
        });
    }

    /**
     * Puts the library into the CLI's temporary folder (java.io.tmpdir). That folder full or
     * read-only is a problem of the host, not a bug of heaptap's: exit 4 with the folder named.
     */
    private static NativeLibrary.Extracted extract(long pid) throws NativeAgentException {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        try {
            return NativeLibrary.extract(tmp);
        } catch (NativeAgentException e) {
            if (e.getCause() instanceof IOException io) {
                throw new CannotAttachException(pid, "cannot write heaptap's native agent into " + tmp
                        + " (java.io.tmpdir, heaptap's temporary folder): " + why(io)
                        + "; free space there or make it writable, or run heaptap with -Djava.io.tmpdir=<another folder>");
            }
            throw e;
        }
    }

    private static String why(IOException e) {
        String m = String.valueOf(e.getMessage());
        if (m.contains("No space left")) {
            return "it is full";
        }
        if (m.contains("Read-only file system")) {
            return "it is read-only";
        }
        return e instanceof AccessDeniedException ? "permission denied" : m;
    }
}
