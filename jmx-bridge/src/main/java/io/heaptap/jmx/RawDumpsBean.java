package io.heaptap.jmx;

import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.session.Controller;

/**
 * The CLI's raw-dump transport over the {@link Controller}: marked as heaptap's work so its reads stay out
 * of the profile, and heaptap's exceptions as plain JDK ones, as on the heaptap MBean.
 */
final class RawDumpsBean implements RawDumpsMXBean {
    private final Controller controller;

    RawDumpsBean(Controller controller) {
        this.controller = controller;
    }

    @Override
    public String openRawDump(boolean gc, boolean census) {
        try (NativeAgent.HeaptapWork work = NativeAgent.heaptapWork()) {
            return controller.openRawDump(gc, census);
        } catch (RuntimeException e) {
            throw JdkExceptions.plain(e);
        }
    }

    @Override
    public byte[] readRawDump(String id, long offset, int maxBytes) {
        try (NativeAgent.HeaptapWork work = NativeAgent.heaptapWork()) {
            return controller.readRawDump(required(id), offset, maxBytes);
        } catch (RuntimeException e) {
            throw JdkExceptions.plain(e);
        }
    }

    @Override
    public String rawDumpCensus(String id) {
        try (NativeAgent.HeaptapWork work = NativeAgent.heaptapWork()) {
            return controller.rawDumpCensus(required(id));
        } catch (RuntimeException e) {
            throw JdkExceptions.plain(e);
        }
    }

    @Override
    public void closeRawDump(String id) {
        try (NativeAgent.HeaptapWork work = NativeAgent.heaptapWork()) {
            controller.closeRawDump(required(id));
        } catch (RuntimeException e) {
            throw JdkExceptions.plain(e);
        }
    }

    private static String required(String id) {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("id is required (what openRawDump returned)");
        }
        return id;
    }
}
