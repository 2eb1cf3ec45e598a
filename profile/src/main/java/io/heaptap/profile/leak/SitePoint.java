package io.heaptap.profile.leak;

/**
 * One site at one snapshot of a leak watch. Live figures are the site's live set at that moment;
 * allocation figures are what it allocated since the previous snapshot (estimates).
 *
 * @param atMillis         when, in milliseconds since the watch started
 * @param tracked          tracked objects behind the live figures (a count)
 * @param liveObjects      estimated live objects
 * @param liveBytes        estimated live bytes
 * @param medianAgeMillis  median age of the live objects (weighted like the estimates)
 * @param maxAgeMillis     age of the oldest tracked live object
 * @param medianGcs        median collections survived by the live objects
 * @param allocatedObjects estimated objects allocated since the previous snapshot
 * @param allocatedBytes   estimated bytes allocated since the previous snapshot
 * @param gcCount          collections in the JVM so far (the watch's GC clock)
 */
public record SitePoint(long atMillis, long tracked, double liveObjects, double liveBytes, long medianAgeMillis,
                        long maxAgeMillis, long medianGcs, double allocatedObjects, double allocatedBytes, long gcCount) {
}
