package io.heaptap.session;

import io.heaptap.wire.options.OtlpPushOptions;
import io.heaptap.profile.HumanUnits;

import java.time.Instant;

/**
 * The OTLP push as status shows it.
 *
 * @param options    where it pushes, how often
 * @param sent       bodies the collector took (HTTP 2xx)
 * @param failed     bodies sent that the collector refused (4xx, 5xx) or never answered (connect or read timeout, refused connection)
 * @param notSent    periods whose delta was not sent: its body was over {@link OtlpPushOptions#MAX_BODY_BYTES}, did not fit
 *                   heaptap's heap budget, or continuous sampling restarted under it
 * @param bytesSent  bytes of the bodies the collector took
 * @param lastSentAt when the last body was taken, or null
 * @param lastError  what went wrong last, with when ("" when nothing has)
 */
public record OtlpPushStatus(OtlpPushOptions options, long sent, long failed, long notSent, long bytesSent, Instant lastSentAt,
                             String lastError) {

    /** One line for status. */
    public String describe() {
        return "OTLP push to " + options.describe() + ": " + sent + " sent (" + HumanUnits.formatBytes(bytesSent) + ")"
                + (lastSentAt == null ? "" : ", last at " + lastSentAt) + ", " + failed + " failed, " + notSent + " not sent"
                + (lastError.isEmpty() ? "" : "; last error: " + lastError);
    }
}
