#include "fieldNames.h"

#include <vector>

namespace {

// Bounds on the class hierarchy looked at; real hierarchies are far below them.
constexpr int kMaxClasses = 256;
constexpr int kMaxInterfaces = 512;

bool contains(JNIEnv* jni, const std::vector<jclass>& list, jclass klass) {
    for (jclass k : list) {
        if (jni->IsSameObject(k, klass)) return true;
    }
    return false;
}

// Appends the direct interfaces of klass and, transitively, their superinterfaces, once each.
// Returns false when a bound or JVMTI failed: the index cannot be trusted then.
bool addInterfaces(jvmtiEnv* jvmti, JNIEnv* jni, jclass klass, std::vector<jclass>& out) {
    std::vector<jclass> pending{klass};
    while (!pending.empty()) {
        jclass k = pending.back();
        pending.pop_back();
        jint count = 0;
        jclass* interfaces = nullptr;
        if (jvmti->GetImplementedInterfaces(k, &count, &interfaces) != JVMTI_ERROR_NONE) {
            return false;
        }
        bool ok = true;
        for (jint i = 0; i < count; i++) {
            if (contains(jni, out, interfaces[i])) continue;
            if (static_cast<int>(out.size()) >= kMaxInterfaces) {
                ok = false;
                break;
            }
            out.push_back(interfaces[i]);
            pending.push_back(interfaces[i]);
        }
        jvmti->Deallocate(reinterpret_cast<unsigned char*>(interfaces));
        if (!ok) return false;
    }
    return true;
}

}  // namespace

jint FieldNames::fieldCount(jvmtiEnv* jvmti, jclass klass) {
    jint count = 0;
    jfieldID* fields = nullptr;
    if (jvmti->GetClassFields(klass, &count, &fields) != JVMTI_ERROR_NONE) {
        return -1;
    }
    jvmti->Deallocate(reinterpret_cast<unsigned char*>(fields));
    return count;
}

std::string FieldNames::fieldAt(jvmtiEnv* jvmti, jclass klass, jint position) {
    jint count = 0;
    jfieldID* fields = nullptr;
    if (jvmti->GetClassFields(klass, &count, &fields) != JVMTI_ERROR_NONE) {
        return std::string();
    }
    std::string result;
    char* name = nullptr;
    if (position >= 0 && position < count && jvmti->GetFieldName(klass, fields[position], &name, nullptr, nullptr) == JVMTI_ERROR_NONE) {
        result = name;
        jvmti->Deallocate(reinterpret_cast<unsigned char*>(name));
    }
    jvmti->Deallocate(reinterpret_cast<unsigned char*>(fields));
    return result;
}

std::string FieldNames::name(jvmtiEnv* jvmti, JNIEnv* jni, jclass klass, jint index) {
    if (klass == nullptr || index < 0) {
        return std::string();
    }
    if (jni->PushLocalFrame(kMaxClasses + kMaxInterfaces + 16) != JNI_OK) {
        jni->ExceptionClear();  // out of memory for local references: leave the field unnamed
        return std::string();
    }
    std::string result;
    jboolean isInterface = JNI_FALSE;
    std::vector<jclass> chain;       // klass, its superclass, ..., java.lang.Object
    std::vector<jclass> interfaces;  // every interface counted before the first class field
    bool ok = jvmti->IsInterface(klass, &isInterface) == JVMTI_ERROR_NONE;
    if (ok) {
        chain.push_back(klass);
        if (!isInterface) {
            for (jclass super = jni->GetSuperclass(klass); super != nullptr; super = jni->GetSuperclass(super)) {
                if (static_cast<int>(chain.size()) >= kMaxClasses) {
                    ok = false;
                    break;
                }
                chain.push_back(super);
            }
        }
        for (size_t i = 0; ok && i < chain.size(); i++) {
            ok = addInterfaces(jvmti, jni, chain[i], interfaces);
        }
    }
    jint position = index;
    for (size_t i = 0; ok && i < interfaces.size(); i++) {
        jint n = fieldCount(jvmti, interfaces[i]);
        ok = n >= 0;
        position -= n;
    }
    // Object first, klass last.
    for (size_t i = chain.size(); ok && position >= 0 && i-- > 0;) {
        jint n = fieldCount(jvmti, chain[i]);
        if (n < 0) break;
        if (position < n) {
            result = fieldAt(jvmti, chain[i], position);
            break;
        }
        position -= n;
    }
    jni->PopLocalFrame(nullptr);
    return result;
}
