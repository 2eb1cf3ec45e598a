package io.heaptap.session;

import io.heaptap.profile.AllocationSite;

import java.util.function.Predicate;

/**
 * Which allocation sites a user means by a short text: the allocated type ({@code byte[]},
 * {@code com.example.Order}) or the allocating method ({@code OrderCache.put}), as a substring.
 */
public final class SiteMatch {
    private SiteMatch() {
    }

    public static Predicate<AllocationSite> of(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("a site is required: a type (for example byte[]) or the allocating method"
                    + " (for example OrderCache.put), as the dump shows them");
        }
        String t = text.trim();
        return site -> site.type().contains(t)
                || (!site.stack().isEmpty() && site.stack().get(0).functionName().contains(t));
    }
}
