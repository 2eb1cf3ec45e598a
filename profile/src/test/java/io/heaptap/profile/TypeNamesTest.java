package io.heaptap.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TypeNamesTest {
    @Test
    void signaturesBecomeJavaNames() {
        assertEquals("byte[]", TypeNames.fromSignature("[B"));
        assertEquals("long[][]", TypeNames.fromSignature("[[J"));
        assertEquals("java.lang.String", TypeNames.fromSignature("Ljava/lang/String;"));
        assertEquals("java.lang.String[]", TypeNames.fromSignature("[Ljava/lang/String;"));
        assertEquals("java.util.HashMap$Node[]", TypeNames.fromSignature("[Ljava/util/HashMap$Node;"));
    }

    @Test
    void hiddenClassAddressesAreDropped() {
        assertEquals("a.Demo$$Lambda", TypeNames.stable("a.Demo$$Lambda$19.0x00007f88a8026660"));
        assertEquals("a.Demo$$Lambda", TypeNames.stable("a.Demo$$Lambda/0x000001d80104a000"));
        // JVMTI signature of a hidden class: "L" + internal name + "." + suffix + ";"
        assertEquals("a.Demo$$Lambda", TypeNames.fromSignature("La/Demo$$Lambda.0x00007f88a8026660;"));
        assertEquals("java.lang.invoke.LambdaForm$MH", TypeNames.stable("java.lang.invoke.LambdaForm$MH/0x0000000800c0c400"));
        assertEquals("a.Plain$Inner", TypeNames.stable("a.Plain$Inner"));
    }
}
