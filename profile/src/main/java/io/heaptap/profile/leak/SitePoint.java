package io.heaptap.profile.leak;

import io.heaptap.profile.Estimate;

/**
 * One site at one snapshot of a leak watch. Live figures are the site's <b>proven</b> live set at
 * that moment (objects still referenced after a whole-heap marking that began after their
 * allocation); what no marking has examined yet is kept apart in {@code unexaminedBytes}.
 * Allocation figures are what the site allocated since the previous snapshot (estimates).
 *
 * @param atMillis          when, in milliseconds since the watch started
 * @param tracked           tracked objects alive, proven or not (a count)
 * @param provenTracked     tracked objects behind the proven figures (a count)
 * @param liveObjects       estimated proven live objects
 * @param liveBytes         estimated proven live bytes
 * @param liveBytesVariance the variance of {@code liveBytes}
 * @param unexaminedBytes   estimated live bytes not yet examined by a marking (may be garbage)
 * @param medianAgeMillis   median age of the proven objects (weighted like the estimates)
 * @param maxAgeMillis      age of the oldest proven object
 * @param medianGcs         median collections survived by all tracked live objects
 * @param allocatedObjects  estimated objects allocated since the previous snapshot
 * @param allocatedBytes    estimated bytes allocated since the previous snapshot
 * @param gcCount           collections of any kind in the JVM so far
 * @param markings          whole-heap markings completed so far (the watch's liveness-proof clock)
 * @param horizonMillis     how old the proof was: objects older than this had been examined (-1: none yet)
 */
public record SitePoint(long atMillis, long tracked, long provenTracked, double liveObjects, double liveBytes,
                        double liveBytesVariance, double unexaminedBytes, long medianAgeMillis, long maxAgeMillis,
                        long medianGcs, double allocatedObjects, double allocatedBytes, long gcCount, long markings,
                        long horizonMillis) {

    /** The proven live bytes with their interval. */
    public Estimate live() {
        return new Estimate(liveBytes, liveBytesVariance);
    }
}
