package io.heaptap.profile.leak;

/**
 * A site's verdict and the numbers behind it. Live figures are of the proven live set (still
 * referenced after a whole-heap marking that began after allocation); byte and object figures are
 * estimates; ages are of the tracked (sampled) proven objects; counts say so.
 *
 * @param site               the allocation site
 * @param verdict            what its live set looks like
 * @param confidence         0-1: how far the evidence is past the verdict's thresholds, scaled down
 *                           for few proven points (one per proof) or few tracked objects; 0 when undecided
 * @param score              leak evidence used for ranking: growth per minute times how sure it
 *                           rises times how much of the oldest objects stay (bytes per minute)
 * @param points             snapshots in the site's window (a count)
 * @param provenPoints       of those, the points the verdict rests on: one per proof by a marking in the window (a count)
 * @param windowMillis       how long the site was watched: from the snapshot before it first appeared
 * @param tracked            tracked live objects at the last snapshot, proven or not (a count)
 * @param liveBytes          estimated proven live bytes at the last snapshot
 * @param liveBytesLow       lower end of its 95% interval
 * @param liveBytesHigh      upper end of its 95% interval
 * @param liveObjects        estimated proven live objects at the last snapshot
 * @param unexaminedBytes    estimated live bytes no marking has examined yet (may be garbage)
 * @param bytesPerMinute     Theil–Sen slope of the proven live bytes
 * @param objectsPerMinute   Theil–Sen slope of the proven live objects
 * @param growth             growth over the proven points relative to the recent level: slope × span / level
 * @param risingProbability  Mann–Kendall probability that proven live bytes rise (0.5: no evidence)
 * @param medianAgeMillis    median age of the proven objects at the last snapshot
 * @param maxAgeMillis       age of the oldest proven object at the last snapshot
 * @param ageCoverage        maxAge / window: about 1 when the oldest objects stay, small when ages reset
 * @param medianGcs          median collections survived by the live objects
 * @param gcs                collections of any kind in the window (a count)
 * @param markings           whole-heap markings in the window (a count): the proof behind the verdict
 * @param allocatedBytes     estimated bytes the site allocated in the window
 * @param retained           proven live bytes / allocated bytes in the window (above 1 when objects predate it)
 * @param reason             the evidence in words, and for an undecided site what would decide it
 */
public record LeakEvidence(SiteKey site, Verdict verdict, double confidence, double score, int points, int provenPoints,
                           long windowMillis, long tracked, double liveBytes, double liveBytesLow, double liveBytesHigh,
                           double liveObjects, double unexaminedBytes, double bytesPerMinute, double objectsPerMinute,
                           double growth, double risingProbability, long medianAgeMillis, long maxAgeMillis,
                           double ageCoverage, long medianGcs, long gcs, long markings, double allocatedBytes, double retained,
                           String reason) {
}
