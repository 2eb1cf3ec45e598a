package io.heaptap.profile.census;

/**
 * A class census asked for on its own ({@code heaptap census}): the census, and the forced whole-heap
 * collection it followed, whose pause the application paid for too.
 *
 * @param census               the exact census per class
 * @param collectionPauseMillis how long heaptap's forced collection took, before the census
 */
public record CensusReading(ClassCensus census, long collectionPauseMillis) {
}
