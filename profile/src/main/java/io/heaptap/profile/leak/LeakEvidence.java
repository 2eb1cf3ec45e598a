package io.heaptap.profile.leak;

/**
 * A site's verdict and the numbers behind it. Byte and object figures are estimates; ages are of
 * the tracked (sampled) objects; counts say so.
 *
 * @param site               the allocation site
 * @param verdict            what its live set looks like
 * @param confidence         0-1: how far the evidence is past the verdict's thresholds, scaled down
 *                           for few snapshots, few tracked objects, or no collection in the window
 * @param score              leak evidence used for ranking: growth per minute times how sure it
 *                           rises times how much of the oldest objects stay (bytes per minute)
 * @param points             snapshots in the site's window (a count)
 * @param windowMillis       how long the site was watched: from the snapshot before it first appeared
 * @param tracked            tracked live objects at the last snapshot (a count)
 * @param liveBytes          estimated live bytes at the last snapshot
 * @param liveObjects        estimated live objects at the last snapshot
 * @param bytesPerMinute     Theil–Sen slope of estimated live bytes
 * @param objectsPerMinute   Theil–Sen slope of estimated live objects
 * @param growth             growth over the window relative to the recent level: slope × span / level
 * @param risingProbability  Mann–Kendall probability that live bytes rise (0.5: no evidence)
 * @param medianAgeMillis    median age of the live objects at the last snapshot
 * @param maxAgeMillis       age of the oldest tracked live object at the last snapshot
 * @param ageCoverage        maxAge / window: about 1 when the oldest objects stay, small when ages reset
 * @param medianGcs          median collections survived by the live objects
 * @param gcs                collections in the window (a count)
 * @param allocatedBytes     estimated bytes the site allocated in the window
 * @param retained           live bytes / allocated bytes in the window (above 1 when objects predate it)
 * @param reason             the evidence in words
 */
public record LeakEvidence(SiteKey site, Verdict verdict, double confidence, double score, int points, long windowMillis,
                           long tracked, double liveBytes, double liveObjects, double bytesPerMinute,
                           double objectsPerMinute, double growth, double risingProbability, long medianAgeMillis,
                           long maxAgeMillis, double ageCoverage, long medianGcs, long gcs, double allocatedBytes,
                           double retained, String reason) {
}
