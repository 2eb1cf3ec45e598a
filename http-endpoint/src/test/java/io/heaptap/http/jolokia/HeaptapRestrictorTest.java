package io.heaptap.http.jolokia;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import javax.management.ObjectName;

import org.junit.jupiter.api.Test;

class HeaptapRestrictorTest {
    private final HeaptapRestrictor restrictor = new HeaptapRestrictor(name("io.heaptap:type=Heaptap"));

    @Test
    void rawDumpsAndByteArraysAreForTheCliOnlyWithOrWithoutASignature() {
        ObjectName heaptap = name("io.heaptap:type=Heaptap");
        for (String op : new String[] {"openRawDump", "openRawDump(boolean)", "readRawDump(java.lang.String,long,int)",
                "closeRawDump", "closeRawDump(java.lang.String)", "dumpBytes(java.lang.String,java.lang.String,long,boolean)",
                "leakReport", " openRawDump (boolean)"}) {
            assertFalse(restrictor.isOperationAllowed(heaptap, op), op);
        }
        assertTrue(restrictor.isOperationAllowed(heaptap, "dump(java.lang.String)"));
        assertTrue(restrictor.isOperationAllowed(heaptap, "start"));
        assertFalse(restrictor.isOperationAllowed(name("java.lang:type=Memory"), "gc"));
    }

    private static ObjectName name(String s) {
        try {
            return new ObjectName(s);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
