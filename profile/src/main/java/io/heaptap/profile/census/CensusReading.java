package io.heaptap.profile.census;

/**
 * A class census asked for on its own ({@code heaptap census}): the census, and the forced whole-heap
 * collection it followed, whose pause the application paid for too.
 *
 * @param census               the exact census per class, less heaptap's own samples where it counts them
 * @param collectionPauseMillis how long heaptap's forced collection took, before the census
 * @param heaptapSamplesBytes  what the census counted of heaptap's samples that no marking had examined, and left out
 *                             ({@link HeldByTracking}: on ZGC and Shenandoah, whose census reaches objects through weak
 *                             references too); 0 elsewhere
 */
public record CensusReading(ClassCensus census, long collectionPauseMillis, long heaptapSamplesBytes) {
}
