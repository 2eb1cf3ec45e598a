package io.heaptap.jmx;

import io.heaptap.session.AgentUnavailableException;
import io.heaptap.session.HeapBudgetException;
import io.heaptap.session.SessionConflictException;

/** heaptap's exception types as the JDK types every JMX client can unmarshal. */
final class JdkExceptions {
    private JdkExceptions() {
    }

    static RuntimeException plain(RuntimeException e) {
        if (e instanceof SessionConflictException || e instanceof AgentUnavailableException || e instanceof HeapBudgetException) {
            return new IllegalStateException(e.getMessage());
        }
        return e;
    }
}
