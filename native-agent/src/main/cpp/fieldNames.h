// Field names for the indices a heap walk reports (jvmtiHeapReferenceInfoField.index).
//
// The JVMTI spec numbers the fields of a class C as one list: first the fields of every interface
// C implements (directly, through its superclasses, or as superinterfaces), then the fields of
// java.lang.Object, then of each superclass down to C, each class's fields in GetClassFields order.
// An interface I numbers its own fields after those of all its superinterfaces. Static and instance
// fields count alike. So a name needs only counts of the fields before it and one GetClassFields.
// Used after the walk only: a heap callback may not call JVMTI.
#pragma once
#include <jni.h>
#include <jvmti.h>

#include <string>

class FieldNames {
  public:
    // klass: the class of the referring object (instance field), or the referring class or
    // interface itself (static field). Returns an empty string when the index cannot be named.
    static std::string name(jvmtiEnv* jvmti, JNIEnv* jni, jclass klass, jint index);

  private:
    static jint fieldCount(jvmtiEnv* jvmti, jclass klass);
    static std::string fieldAt(jvmtiEnv* jvmti, jclass klass, jint position);
};
