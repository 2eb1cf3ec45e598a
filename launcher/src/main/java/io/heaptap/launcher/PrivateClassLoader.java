package io.heaptap.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.Collections;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Loads heaptap's own classes and libraries from a folder inside heaptap.jar that no other class
 * loader looks into. The application therefore never sees heaptap's classes (or its copies of
 * Netty, Jolokia, picocli), and heaptap never sees the application's.
 */
final class PrivateClassLoader extends ClassLoader {
    /** The folder inside heaptap.jar that holds every class except the launcher's. */
    static final String PREFIX = "HEAPTAP-INF/classes/";

    static {
        registerAsParallelCapable();
    }

    private final JarFile jar;
    private final String jarUrl;
    private final ProtectionDomain domain;

    PrivateClassLoader(Path jarPath, ClassLoader parent) throws IOException {
        super("heaptap", parent);
        this.jar = new JarFile(jarPath.toFile(), false);
        URL location = jarPath.toUri().toURL();
        this.jarUrl = "jar:" + location + "!/";
        this.domain = new ProtectionDomain(new CodeSource(location, (Certificate[]) null), null, this, null);
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        JarEntry entry = jar.getJarEntry(PREFIX + name.replace('.', '/') + ".class");
        if (entry == null) {
            throw new ClassNotFoundException(name);
        }
        byte[] bytes;
        try (InputStream in = jar.getInputStream(entry)) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
        }
        definePackageOf(name);
        return defineClass(name, bytes, 0, bytes.length, domain);
    }

    private void definePackageOf(String className) {
        int dot = className.lastIndexOf('.');
        if (dot < 0) {
            return;
        }
        String pkg = className.substring(0, dot);
        if (getDefinedPackage(pkg) == null) {
            try {
                definePackage(pkg, null, null, null, null, null, null, null);
            } catch (IllegalArgumentException raced) {
                // another thread defined it first: fine
            }
        }
    }

    @Override
    protected URL findResource(String name) {
        JarEntry entry = jar.getJarEntry(PREFIX + name);
        if (entry == null) {
            return null;
        }
        try {
            return new URL(jarUrl + PREFIX + name);
        } catch (MalformedURLException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected Enumeration<URL> findResources(String name) {
        URL url = findResource(name);
        return url == null ? Collections.emptyEnumeration() : Collections.enumeration(java.util.List.of(url));
    }
}
