package io.heaptap.http.route;

import io.heaptap.profile.format.JsonOutput;
import io.heaptap.session.AgentUnavailableException;
import io.heaptap.session.HeapBudgetException;
import io.heaptap.session.SessionConflictException;

import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;

/**
 * Every failure as a JSON body with the right status:
 * {@code {"error":{"status":409,"reason":"Conflict","message":"...","parameter":null}}}.
 * No stack traces leave the target.
 */
public final class ErrorResponses {
    private ErrorResponses() {
    }

    public static Response of(Throwable failure) {
        Throwable t = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (t instanceof HttpError e) {
            Response r = of(e.status(), e.getMessage(), e.parameter());
            for (Map.Entry<String, String> h : e.headers().entrySet()) {
                r = r.withHeader(h.getKey(), h.getValue());
            }
            return r;
        }
        if (t instanceof SessionConflictException) {
            return of(409, t.getMessage(), null);
        }
        if (t instanceof AgentUnavailableException || t instanceof HeapBudgetException) {
            return of(503, t.getMessage(), null);
        }
        if (t instanceof RejectedExecutionException) {
            return of(503, "heaptap's HTTP endpoint is busy: too many requests in progress; retry shortly", null);
        }
        if (t instanceof IllegalArgumentException) {
            return of(400, t.getMessage(), null);
        }
        if (t instanceof IllegalStateException) {
            return of(409, t.getMessage(), null);
        }
        return of(500, "internal error: " + t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage()), null);
    }

    public static Response of(int status, String message, String parameter) {
        JsonOutput json = new JsonOutput().beginObject().name("error").beginObject()
                .field("status", status)
                .field("reason", reason(status))
                .field("message", message)
                .field("parameter", parameter)
                .endObject().endObject();
        return Response.json(status, json.toString());
    }

    static String reason(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 408 -> "Request Timeout";
            case 409 -> "Conflict";
            case 413 -> "Content Too Large";
            case 431 -> "Request Header Fields Too Large";
            case 503 -> "Service Unavailable";
            default -> "Internal Server Error";
        };
    }
}
