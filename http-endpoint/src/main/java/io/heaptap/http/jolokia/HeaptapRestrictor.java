package io.heaptap.http.jolokia;

import org.jolokia.server.core.service.api.Restrictor;
import org.jolokia.server.core.util.HttpMethod;
import org.jolokia.server.core.util.RequestType;

import java.util.EnumSet;
import java.util.Set;

import javax.management.ObjectName;

/**
 * What Jolokia may touch through heaptap's endpoint, as an allow-list. heaptap is a memory tool, not
 * a remote console for the application: it exposes its own MBean (read, write, exec) and the JVM's
 * memory-related platform MBeans (read only), and nothing else.
 *
 * <ul>
 * <li>Not exposed: the application's own MBeans (a data source's password, a framework's whole
 *     configuration), {@code com.sun.management:type=HotSpotDiagnostic} (VM options, heap dumps),
 *     {@code com.sun.management:type=DiagnosticCommand} (the command line, system properties,
 *     arbitrary diagnostics) and everything else not listed here. They are hidden from
 *     {@code list} and {@code search} too.</li>
 * <li>{@code java.lang:type=Runtime} shows only what identifies the JVM and its uptime: its
 *     {@code SystemProperties}, {@code InputArguments}, {@code ClassPath}, {@code BootClassPath}
 *     and {@code LibraryPath} carry secrets ({@code -Ddb.password=...}) and paths, and are never readable.</li>
 * <li>heaptap's whole-dump operations ({@code dumpText}, {@code dumpBytes}, {@code leakReport}) are for JMX
 *     clients; over HTTP, {@code /api/dump} and {@code /api/leaks} serve the same data. The raw dumps
 *     ({@code openRawDump}, {@code readRawDump}, {@code closeRawDump}) live on the CLI's own MBean,
 *     {@code io.heaptap:type=RawDumps}, which Jolokia does not show; their names stay refused here too.</li>
 * </ul>
 * Which HTTP method may run what (exec and write only through POST) and the size of requests are
 * decided by {@link BoundedRequestHandler}; who may connect, by the server before Jolokia sees anything.
 */
final class HeaptapRestrictor implements Restrictor {
    private static final Set<RequestType> ALLOWED = EnumSet.of(RequestType.READ, RequestType.LIST, RequestType.SEARCH,
            RequestType.VERSION, RequestType.EXEC, RequestType.WRITE);
    private static final Set<String> JAVA_LANG_TYPES = Set.of("Memory", "MemoryPool", "GarbageCollector", "MemoryManager",
            "Threading", "ClassLoading", "Compilation", "OperatingSystem", "Runtime");
    static final Set<String> RUNTIME_ATTRIBUTES = Set.of("Name", "Pid", "Uptime", "StartTime", "VmName", "VmVendor", "VmVersion",
            "SpecName", "SpecVendor", "SpecVersion", "ManagementSpecVersion", "BootClassPathSupported");
    /**
     * Byte-array operations, and the raw-dump slots behind them: a raw dump holds one of the agent's
     * few snapshot slots in native memory until closed, so one exec of openRawDump per slot would
     * lock every other door's dumps out. Only the CLI opens them, and closes what it opened.
     */
    static final Set<String> CLI_ONLY_OPERATIONS = Set.of("dumpText", "dumpBytes", "leakReport", "openRawDump", "readRawDump",
            "closeRawDump");

    private final ObjectName heaptap;

    HeaptapRestrictor(ObjectName heaptap) {
        this.heaptap = heaptap;
    }

    /** Whether Jolokia may show this MBean at all. */
    boolean isExposed(ObjectName name) {
        if (heaptap.apply(name)) {
            return true;
        }
        String type = name.getKeyProperty("type");
        return switch (name.getDomain()) {
            case "java.lang" -> type != null && JAVA_LANG_TYPES.contains(type);
            case "java.nio" -> "BufferPool".equals(type);
            default -> false;
        };
    }

    /** The MBean whose attributes are exposed one by one (see {@link #RUNTIME_ATTRIBUTES}). */
    static boolean isRuntime(ObjectName name) {
        return name.getDomain().equals("java.lang") && "Runtime".equals(name.getKeyProperty("type"));
    }

    @Override
    public boolean isHttpMethodAllowed(HttpMethod method) {
        return method == HttpMethod.GET || method == HttpMethod.POST;
    }

    @Override
    public boolean isTypeAllowed(RequestType type) {
        return ALLOWED.contains(type);
    }

    @Override
    public boolean isAttributeReadAllowed(ObjectName name, String attribute) {
        return isExposed(name) && (!isRuntime(name) || RUNTIME_ATTRIBUTES.contains(attribute));
    }

    @Override
    public boolean isAttributeWriteAllowed(ObjectName name, String attribute) {
        return heaptap.apply(name);
    }

    @Override
    public boolean isOperationAllowed(ObjectName name, String operation) {
        return heaptap.apply(name) && !CLI_ONLY_OPERATIONS.contains(operationName(operation));
    }

    /** The name alone: Jolokia hands over what the client sent, a signature too ({@code openRawDump(boolean)}). */
    static String operationName(String operation) {
        int paren = operation.indexOf('(');
        return (paren < 0 ? operation : operation.substring(0, paren)).strip();
    }

    @Override
    public boolean isRemoteAccessAllowed(String... hostOrAddress) {
        return true;  // the server decides who connects
    }

    @Override
    public boolean isOriginAllowed(String origin, boolean onlyWhenStrictCheckingIsEnabled) {
        return true;  // the server has checked the origin already
    }

    @Override
    public boolean isObjectNameHidden(ObjectName name) {
        return !isExposed(name);
    }
}
