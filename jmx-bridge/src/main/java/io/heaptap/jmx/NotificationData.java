package io.heaptap.jmx;

import io.heaptap.profile.leak.LeakEvidence;
import io.heaptap.profile.leak.LeakReport;
import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.session.SessionStatus;

import java.time.Duration;

import javax.management.openmbean.CompositeData;
import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenDataException;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;

/**
 * The figures behind each notification as open-type CompositeData, so any JMX client reads them without
 * heaptap's classes. Bytes and times are whole numbers (bytes, milliseconds); the sampling is also in words.
 */
final class NotificationData {
    private static final Shape STARTED = shape("CaptureStarted", "A capture started",
            new String[] {"startedBy", "durationMillis", "sampling", "costBounded", "sampleRate", "intervalBytes", "live"},
            new String[] {"Who started it", "The time box in milliseconds", "The sampling in words",
                    "Whether the default cost bound is in force", "The sample-rate target (samples/s; 0: a fixed interval)",
                    "The fixed interval, or where an adaptive one starts (bytes)", "Whether sampled objects are tracked"},
            new OpenType<?>[] {SimpleType.STRING, SimpleType.LONG, SimpleType.STRING, SimpleType.BOOLEAN, SimpleType.INTEGER,
                    SimpleType.LONG, SimpleType.BOOLEAN});
    private static final Shape ENDED = shape("CaptureEnded", "A capture ended",
            new String[] {"reason", "ranMillis", "samples", "startedBy"},
            new String[] {"Why it ended (the time box, a stop)", "How long it ran in milliseconds", "Samples recorded (a count)",
                    "Who started it"},
            new OpenType<?>[] {SimpleType.STRING, SimpleType.LONG, SimpleType.LONG, SimpleType.STRING});
    private static final Shape SUSPECT = shape("LeakSuspect", "A new leak suspect",
            new String[] {"pid", "rank", "confidence", "type", "allocatedAt", "liveBytes", "bytesPerMinute", "maxAgeMillis", "reason"},
            new String[] {"The process", "Its rank in the leak report", "Confidence in the verdict, 0-1", "The allocated type",
                    "The allocating frame", "Bytes proven live (an estimate)", "Growth of live bytes per minute (an estimate)",
                    "Age of the oldest tracked object in milliseconds", "The evidence in words"},
            new OpenType<?>[] {SimpleType.LONG, SimpleType.INTEGER, SimpleType.DOUBLE, SimpleType.STRING, SimpleType.STRING,
                    SimpleType.LONG, SimpleType.LONG, SimpleType.LONG, SimpleType.STRING});

    private NotificationData() {
    }

    static CompositeData started(SessionStatus s) {
        CaptureOptions o = s.options();
        return data(STARTED, s.startedBy(), o.duration().toMillis(), o.describeSampling(), o.costBounded(), o.sampleRate(),
                o.intervalBytes(), o.live());
    }

    static CompositeData ended(SessionStatus s, String reason, Duration ran) {
        return data(ENDED, reason, ran.toMillis(), s.samples(), s.startedBy());
    }

    static CompositeData suspect(long pid, LeakReport.RankedSite site) {
        LeakEvidence e = site.evidence();
        // Rounded to 3 places: a share, not a figure to 16 digits.
        return data(SUSPECT, pid, site.rank(), Math.round(e.confidence() * 1000) / 1000.0, e.site().type(), e.site().allocatedAt(),
                Math.round(e.liveBytes()), Math.round(e.bytesPerMinute()), e.maxAgeMillis(), e.reason());
    }

    /** An open type and its item names in the order the values are given (CompositeDataSupport takes any order). */
    private record Shape(CompositeType type, String[] items) {
    }

    private static CompositeData data(Shape shape, Object... values) {
        try {
            return new CompositeDataSupport(shape.type(), shape.items(), values);
        } catch (OpenDataException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Shape shape(String name, String description, String[] items, String[] descriptions, OpenType<?>[] types) {
        try {
            return new Shape(new CompositeType(name, description, items, descriptions, types), items);
        } catch (OpenDataException e) {
            throw new AssertionError(e);
        }
    }
}
