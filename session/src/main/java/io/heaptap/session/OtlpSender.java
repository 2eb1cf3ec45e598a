package io.heaptap.session;

import java.io.IOException;
import java.net.URI;

/** Sends one OTLP body and says the HTTP status the receiver answered (a fake in unit tests). */
interface OtlpSender {
    /**
     * @return the HTTP status code
     * @throws IOException no answer: refused, timed out, reset
     */
    int post(URI endpoint, byte[] body) throws IOException;
}
