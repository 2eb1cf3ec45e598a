package io.heaptap.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import javax.management.Attribute;
import javax.management.AttributeList;

import org.junit.jupiter.api.Test;

class CaptureProgressTest {
    @Test
    void oneAnswerGivesTheWholeTick() {
        AttributeList answer = new AttributeList(List.of(new Attribute("State", "recording"),
                new Attribute("TimeLeftMillis", 1500L), new Attribute("Samples", 42L)));
        assertEquals(new CaptureProgress(true, 1500, 42), CaptureProgress.of(answer).orElseThrow());
    }

    @Test
    void anyStateButRecordingEndsTheCapturesProgress() {
        for (String state : new String[] {"stopped", "idle"}) {
            AttributeList answer = new AttributeList(List.of(new Attribute("Samples", 7L), new Attribute("State", state),
                    new Attribute("TimeLeftMillis", 0L)));
            assertEquals(new CaptureProgress(false, 0, 7), CaptureProgress.of(answer).orElseThrow());
        }
    }

    /** getAttributes leaves out what it could not read, without an exception: that is no tick. */
    @Test
    void anAttributeLeftOutOfTheAnswerIsNoProgress() {
        AttributeList answer = new AttributeList(List.of(new Attribute("State", "recording"), new Attribute("Samples", 3L)));
        assertTrue(CaptureProgress.of(answer).isEmpty());
    }
}
