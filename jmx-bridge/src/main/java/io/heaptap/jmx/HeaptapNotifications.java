package io.heaptap.jmx;

import io.heaptap.profile.HumanUnits;
import io.heaptap.profile.leak.LeakEvidence;
import io.heaptap.profile.leak.LeakReport;
import io.heaptap.session.SessionListener;
import io.heaptap.session.SessionStatus;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

import javax.management.MBeanNotificationInfo;
import javax.management.Notification;
import javax.management.NotificationBroadcasterSupport;
import javax.management.openmbean.CompositeData;

/**
 * The MXBean's notifications: a capture started; a capture ended (time box or stop), with a summary; a new leak
 * suspect. The message is for people; the UserData, an open-type CompositeData ({@link NotificationData}), for
 * scripts and JConsole's UserData column.
 */
public final class HeaptapNotifications implements SessionListener {
    public static final String STARTED = "io.heaptap.capture.started";
    public static final String ENDED = "io.heaptap.capture.ended";
    public static final String LEAK_SUSPECT = "io.heaptap.leak.suspect";

    private final NotificationBroadcasterSupport emitter = new NotificationBroadcasterSupport(
            new MBeanNotificationInfo(new String[] {STARTED}, Notification.class.getName(),
                    "A capture started: who started it, its time box and interval"),
            new MBeanNotificationInfo(new String[] {ENDED}, Notification.class.getName(),
                    "A capture ended (its time box ended, or it was stopped), with a summary"),
            new MBeanNotificationInfo(new String[] {LEAK_SUSPECT}, Notification.class.getName(),
                    "A leak watch found a new leak suspect: the site, its growth and ages"));
    private final AtomicLong sequence = new AtomicLong();

    NotificationBroadcasterSupport emitter() {
        return emitter;
    }

    @Override
    public void captureStarted(SessionStatus s) {
        send(STARTED, String.format(Locale.ROOT, "capture started by %s: %s at %s, live tracking %s",
                s.startedBy(), HumanUnits.formatDuration(s.options().duration()), s.options().describeSampling(),
                s.options().live() ? "on" : "off"), NotificationData.started(s));
    }

    @Override
    public void captureEnded(SessionStatus s, String reason) {
        Duration ran = Duration.between(s.startedAt(), Instant.now());
        send(ENDED, String.format(Locale.ROOT, "capture ended (%s) after %s: %,d samples; dump it with the dump operation",
                reason, HumanUnits.formatDuration(ran), s.samples()), NotificationData.ended(s, reason, ran));
    }

    @Override
    public void leakSuspected(long pid, LeakReport.RankedSite site) {
        LeakEvidence e = site.evidence();
        send(LEAK_SUSPECT, String.format(Locale.ROOT, "leak suspect in pid %d (rank %d, confidence %.0f%%): %s at %s: %s",
                pid, site.rank(), 100 * e.confidence(), e.site().type(), e.site().allocatedAt(), e.reason()),
                NotificationData.suspect(pid, site));
    }

    private void send(String type, String message, CompositeData figures) {
        Notification n = new Notification(type, MBeanRegistration.objectName(), sequence.incrementAndGet(), System.currentTimeMillis(),
                message);
        n.setUserData(figures);
        emitter.sendNotification(n);
    }
}
