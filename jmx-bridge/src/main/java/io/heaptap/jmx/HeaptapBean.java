package io.heaptap.jmx;

import io.heaptap.profile.format.ProfileFormat;
import io.heaptap.session.CaptureOptions;
import io.heaptap.session.Controller;
import io.heaptap.session.SessionStatus;

import java.util.Locale;

/** The MXBean: a thin adapter from JMX operations to the {@link Controller}. */
final class HeaptapBean implements HeaptapMXBean {
    private final Controller controller;
    private final String version;

    HeaptapBean(Controller controller, String version) {
        this.controller = controller;
        this.version = version;
    }

    @Override
    public String getState() {
        return controller.status().state().name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String getStartedBy() {
        String by = controller.status().startedBy();
        return by == null ? "" : by;
    }

    @Override
    public long getTimeLeftMillis() {
        return controller.status().timeLeftMillis();
    }

    @Override
    public long getSamples() {
        return controller.status().samples();
    }

    @Override
    public long getNativeMemoryBytes() {
        return controller.status().nativeMemory();
    }

    @Override
    public String getNativeAgentError() {
        SessionStatus s = controller.status();
        return s.nativeError() == null ? "" : s.nativeError();
    }

    @Override
    public String getAgentVersion() {
        return version;
    }

    @Override
    public long getWeakRefs() {
        return controller.weakRefs();
    }

    @Override
    public void start(String duration, String interval) {
        controller.start(CaptureOptions.parse(duration, interval), "jmx");
    }

    @Override
    public void start(String duration, String interval, int stackDepth, int maxStacks, boolean live, int liveBudget,
                      String client) {
        controller.start(CaptureOptions.parse(duration, interval, stackDepth, maxStacks, live, liveBudget), client);
    }

    @Override
    public void stop() {
        controller.stop();
    }

    @Override
    public void reset() {
        controller.reset();
    }

    @Override
    public byte[] dumpBytes(String format) {
        return dumpBytes(format, "", 0, false);
    }

    @Override
    public byte[] dumpBytes(String format, String minAge, long minGcs, boolean gc) {
        return controller.dump(ProfileFormat.parse(format), CaptureOptions.parseFilter(minAge, minGcs), gc);
    }
}
