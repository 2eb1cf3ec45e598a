package io.heaptap.session;

/**
 * A request refused because heaptap would need more of the application's heap than its budget
 * ({@link HeapBudget}) allows, now or at all. HTTP answers 503 with the message; the MXBean passes it
 * on as a plain {@link IllegalStateException}. The message says how to get the profile anyway.
 */
public final class HeapBudgetException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public HeapBudgetException(String message) {
        super(message);
    }
}
