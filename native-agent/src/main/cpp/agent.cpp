// Entry points. The library arrives one of two ways: as a JVMTI agent (Agent_OnAttach, what the CLI
// does: HotSpot then resolves the facade's JNI natives from agent libraries, so Java never calls
// System.load, a restricted method that makes JDK 24+ print a warning in the target), or through
// System.load (JNI_OnLoad, the fallback for -javaagent start-up). Either way one Sampler per JVM.
// Nothing here throws or prints; errors are returned as values.
#include <jni.h>
#include <jvmti.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "referencePaths.h"
#include "sampler.h"
#include "snapshotWriter.h"

namespace {

Sampler* sampler = nullptr;
jvmtiEnv* jvmtiForGc = nullptr;
std::string initError;

// May not use JNI or block: a counter bump only.
void JNICALL onGarbageCollectionFinish(jvmtiEnv*) {
    Sampler* s = sampler;
    if (s != nullptr) {
        s->live().onGcFinish();
    }
}

// heaptap's own threads, and any thread while it builds a dump for heaptap, carry this marker in
// the sampling environment's thread-local storage: what they allocate is heaptap's work, not the
// application's, and must not show in its profile or its leak ranking.
char heaptapThreadMarker;

// The current thread's: SampledObjectAlloc is posted on the allocating thread, and a null thread
// spares HotSpot resolving and type-checking the jthread handle at every kept sample (perf showed
// that check beside the stack walk).
bool isHeaptapThread(jvmtiEnv* jvmti) {
    void* tls = nullptr;
    return jvmti->GetThreadLocalStorage(nullptr, &tls) == JVMTI_ERROR_NONE && tls == &heaptapThreadMarker;
}

// The JVM's Attach Listener runs what tools ask of it: heaptap's own attach (system properties,
// starting the JMX agent, on every command), jcmd's. None of it is the application's work.
void markAttachListener(jvmtiEnv* jvmti, JNIEnv* jni) {
    jint count = 0;
    jthread* threads = nullptr;
    if (jvmti->GetAllThreads(&count, &threads) != JVMTI_ERROR_NONE) {
        return;
    }
    for (jint i = 0; i < count; i++) {
        jvmtiThreadInfo info{};
        if (jvmti->GetThreadInfo(threads[i], &info) == JVMTI_ERROR_NONE) {
            if (info.name != nullptr && std::string(info.name) == "Attach Listener") {
                jvmti->SetThreadLocalStorage(threads[i], &heaptapThreadMarker);
            }
            jvmti->Deallocate(reinterpret_cast<unsigned char*>(info.name));
            jni->DeleteLocalRef(info.thread_group);
            jni->DeleteLocalRef(info.context_class_loader);
        }
        jni->DeleteLocalRef(threads[i]);
    }
    jvmti->Deallocate(reinterpret_cast<unsigned char*>(threads));
}

void JNICALL onSampledObjectAlloc(jvmtiEnv* jvmti, JNIEnv* jni, jthread, jobject object, jclass klass, jlong size) {
    Sampler* s = sampler;
    if (s == nullptr) {
        return;
    }
    int64_t weightInterval = s->admit(size);
    if (weightInterval > 0 && !isHeaptapThread(jvmti)) {
        s->onSample(jni, object, klass, size, weightInterval);
    }
}

bool initialize(JavaVM* vm) {
    if (sampler != nullptr) {
        return true;  // loaded both ways: keep the first
    }
    jvmtiEnv* jvmti = nullptr;
    if (vm->GetEnv(reinterpret_cast<void**>(&jvmti), JVMTI_VERSION_11) != JNI_OK || jvmti == nullptr) {
        initError = "this JVM offers no JVMTI 11 environment (heaptap needs HotSpot, Java 11+)";
        return false;
    }
    jvmtiCapabilities caps{};
    caps.can_get_line_numbers = 1;
    caps.can_get_source_file_name = 1;
    if (jvmti->AddCapabilities(&caps) != JVMTI_ERROR_NONE) {
        initError = "JVMTI refused the line-number and source-file capabilities";
        return false;
    }
    // GC-end events make the live table's GC clock exact where the collector posts them; without
    // them the Java side's GC MXBean count is used, so failure here is not an error.
    // The event itself is enabled only while objects are tracked (Sampler).
    jvmtiCapabilities gcCaps{};
    gcCaps.can_generate_garbage_collection_events = 1;
    jvmti->AddCapabilities(&gcCaps);
    jvmtiEventCallbacks callbacks{};
    callbacks.SampledObjectAlloc = onSampledObjectAlloc;
    callbacks.GarbageCollectionFinish = onGarbageCollectionFinish;
    if (jvmti->SetEventCallbacks(&callbacks, sizeof callbacks) != JVMTI_ERROR_NONE) {
        initError = "JVMTI refused heaptap's event callbacks";
        return false;
    }
    jvmtiForGc = jvmti;
    sampler = new Sampler(jvmti, Limits());
    return true;
}

Limits limitsFrom(jint depth, jint maxStacks) {
    return limitsForStacks(depth < 1 ? 1 : (depth > kMaxStackDepth ? kMaxStackDepth : depth),
                           maxStacks < 1 ? 1 : static_cast<uint32_t>(maxStacks));
}

}  // namespace

extern "C" {

JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM* vm, char*, void*) {
    return initialize(vm) ? JNI_OK : JNI_ERR;
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void*) {
    initialize(vm);
    return JNI_VERSION_1_8;
}

// Marks or unmarks the calling thread as heaptap's; returns whether it was marked before.
JNIEXPORT jboolean JNICALL Java_io_heaptap_nativeagent_NativeAgent_markHeaptapThread0(JNIEnv*, jclass, jboolean mark) {
    jvmtiEnv* jvmti = jvmtiForGc;
    if (jvmti == nullptr) {
        return JNI_FALSE;
    }
    bool was = isHeaptapThread(jvmti);
    jvmti->SetThreadLocalStorage(nullptr, mark ? &heaptapThreadMarker : nullptr);
    return was ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jstring JNICALL Java_io_heaptap_nativeagent_NativeAgent_initError(JNIEnv* env, jclass) {
    return sampler != nullptr ? nullptr : env->NewStringUTF(initError.c_str());
}

// Returns a StartResult; for an error with a message, stores the message in detail[0] (a value
// with a code, not a string for Java to parse).
JNIEXPORT jint JNICALL Java_io_heaptap_nativeagent_NativeAgent_start0(JNIEnv* env, jclass, jlong interval, jlong jvmInterval,
                                                                    jlong durationNanos, jint depth, jint maxStacks,
                                                                    jint liveBudget, jlong largeThreshold,
                                                                    jint largeBudget, jlong byteBudget,
                                                                    jlong largeByteBudget, jboolean youngHeld,
                                                                    jobjectArray detail) {
    std::string error;
    StartResult result;
    if (sampler == nullptr) {
        result = StartResult::kJvmtiError;
        error = initError;
    } else {
        LiveSettings live;
        live.budget = liveBudget > 0 ? static_cast<uint32_t>(liveBudget) : 0;
        live.largeThreshold = largeThreshold;
        live.largeBudget = largeBudget > 0 ? static_cast<uint32_t>(largeBudget) : 2;
        live.byteBudget = byteBudget > 0 ? byteBudget : 0;
        live.largeByteBudget = largeByteBudget > 0 ? largeByteBudget : 0;
        live.youngHeld = youngHeld == JNI_TRUE;
        result = sampler->start(interval, jvmInterval, durationNanos, limitsFrom(depth, maxStacks), live, error);
        if (result == StartResult::kOk) {
            markAttachListener(jvmtiForGc, env);
            return static_cast<jint>(result);
        }
    }
    if (!error.empty() && detail != nullptr && env->GetArrayLength(detail) > 0) {
        jstring message = env->NewStringUTF(error.c_str());
        if (message != nullptr) {  // null: OutOfMemoryError pending, which Java then sees
            env->SetObjectArrayElement(detail, 0, message);
            env->DeleteLocalRef(message);
        }
    }
    return static_cast<jint>(result);
}

JNIEXPORT jboolean JNICALL Java_io_heaptap_nativeagent_NativeAgent_setInterval0(JNIEnv*, jclass, jlong interval, jlong jvmInterval) {
    return sampler != nullptr && sampler->setInterval(interval, jvmInterval) ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT void JNICALL Java_io_heaptap_nativeagent_NativeAgent_stop0(JNIEnv*, jclass) {
    if (sampler != nullptr) sampler->stop();
}

JNIEXPORT void JNICALL Java_io_heaptap_nativeagent_NativeAgent_clear0(JNIEnv* env, jclass) {
    if (sampler != nullptr) sampler->clear(env);
}

JNIEXPORT void JNICALL Java_io_heaptap_nativeagent_NativeAgent_maintainLive0(JNIEnv* env, jclass) {
    if (sampler != nullptr) sampler->live().maintain(env);
}

JNIEXPORT void JNICALL Java_io_heaptap_nativeagent_NativeAgent_setGcCount0(JNIEnv*, jclass, jlong collections, jlong finishes) {
    if (sampler != nullptr) sampler->live().setGcCount(collections > 0 ? static_cast<uint64_t>(collections) : 0, finishes);
}

JNIEXPORT jlong JNICALL Java_io_heaptap_nativeagent_NativeAgent_gcFinishes0(JNIEnv*, jclass) {
    return sampler != nullptr ? static_cast<jlong>(sampler->live().jvmtiGcFinishes()) : 0;
}

JNIEXPORT jlong JNICALL Java_io_heaptap_nativeagent_NativeAgent_collectionSignals0(JNIEnv*, jclass) {
    return sampler != nullptr ? static_cast<jlong>(sampler->live().collections().posts()) : 0;
}

// Sleeps in native code (the thread does not hold up safepoints meanwhile); at most a minute.
JNIEXPORT jlong JNICALL Java_io_heaptap_nativeagent_NativeAgent_awaitCollectionSignal0(JNIEnv*, jclass, jlong seen,
                                                                                       jlong timeoutMillis) {
    int64_t millis = std::max<int64_t>(0, std::min<int64_t>(timeoutMillis, 60000));
    if (sampler == nullptr) {
        std::this_thread::sleep_for(std::chrono::milliseconds(millis));  // never a busy loop in the caller
        return seen;
    }
    return static_cast<jlong>(sampler->live().collections().await(static_cast<uint32_t>(seen), millis));
}

JNIEXPORT void JNICALL Java_io_heaptap_nativeagent_NativeAgent_signalCollection0(JNIEnv*, jclass) {
    if (sampler != nullptr) sampler->live().collections().post();
}

JNIEXPORT void JNICALL Java_io_heaptap_nativeagent_NativeAgent_setProvenBefore0(JNIEnv*, jclass, jlong nanos) {
    if (sampler != nullptr) sampler->live().setProvenBefore(nanos);
}

JNIEXPORT jlong JNICALL Java_io_heaptap_nativeagent_NativeAgent_releaseUnexamined0(JNIEnv* env, jclass) {
    return sampler != nullptr ? static_cast<jlong>(sampler->live().releaseUnexamined(env)) : 0;
}

// What the live table holds back (LiveHolding in liveTable.h): TrackingHold.of on the Java side.
JNIEXPORT jdoubleArray JNICALL Java_io_heaptap_nativeagent_NativeAgent_liveHolding0(JNIEnv* env, jclass) {
    LiveHolding h{};
    if (sampler != nullptr) h = sampler->live().holding();
    jdouble values[9] = {static_cast<jdouble>(h.byteBudget), static_cast<jdouble>(h.unexaminedBytes),
                         static_cast<jdouble>(h.trackedBytes), static_cast<jdouble>(h.byteThinnings),
                         static_cast<jdouble>(h.byteThinnedEntries), static_cast<jdouble>(h.oversize),
                         static_cast<jdouble>(h.releases), static_cast<jdouble>(h.releasedEntries), h.theta};
    jdoubleArray array = env->NewDoubleArray(9);
    if (array != nullptr) env->SetDoubleArrayRegion(array, 0, 9, values);
    return array;
}

JNIEXPORT jlong JNICALL Java_io_heaptap_nativeagent_NativeAgent_weakRefs0(JNIEnv*, jclass) {
    return sampler != nullptr ? static_cast<jlong>(sampler->live().weakRefsHeld()) : 0;
}

// A full collection through JVMTI: works even with -XX:+DisableExplicitGC.
JNIEXPORT jboolean JNICALL Java_io_heaptap_nativeagent_NativeAgent_forceGc0(JNIEnv*, jclass) {
    return jvmtiForGc != nullptr && jvmtiForGc->ForceGarbageCollection() == JVMTI_ERROR_NONE ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jboolean JNICALL Java_io_heaptap_nativeagent_NativeAgent_sampling0(JNIEnv*, jclass) {
    return sampler != nullptr && sampler->sampling() ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jlong JNICALL Java_io_heaptap_nativeagent_NativeAgent_samples0(JNIEnv*, jclass) {
    return sampler != nullptr ? static_cast<jlong>(sampler->samples()) : 0;
}

JNIEXPORT jlong JNICALL Java_io_heaptap_nativeagent_NativeAgent_sampleNanos0(JNIEnv*, jclass) {
    return sampler != nullptr ? static_cast<jlong>(sampler->sampleNanos()) : 0;
}

JNIEXPORT jlong JNICALL Java_io_heaptap_nativeagent_NativeAgent_jvmEvents0(JNIEnv*, jclass) {
    return sampler != nullptr ? static_cast<jlong>(sampler->jvmEvents()) : 0;
}

JNIEXPORT jlong JNICALL Java_io_heaptap_nativeagent_NativeAgent_memory0(JNIEnv*, jclass) {
    return sampler != nullptr ? static_cast<jlong>(sampler->memoryBytes()) : 0;
}

// The current or last capture, every counter as it stands, plus the live set now, kept in native
// memory (SnapshotBuffers): returns its handle, or -1 when every slot is taken.
JNIEXPORT jlong JNICALL Java_io_heaptap_nativeagent_NativeAgent_snapshotOpen0(JNIEnv* env, jclass) {
    if (sampler == nullptr) {
        return -1;
    }
    ByteWriter out;
    sampler->snapshot(env, out);
    return static_cast<jlong>(sampler->buffers().open(out.release()));
}

JNIEXPORT jlong JNICALL Java_io_heaptap_nativeagent_NativeAgent_snapshotSize0(JNIEnv*, jclass, jlong handle) {
    return sampler != nullptr ? static_cast<jlong>(sampler->buffers().size(handle)) : -1;
}

// Copies up to len bytes at offset into dst (len is capped by dst's length); returns how many, -1 for a bad handle.
JNIEXPORT jint JNICALL Java_io_heaptap_nativeagent_NativeAgent_snapshotRead0(JNIEnv* env, jclass, jlong handle, jlong offset,
                                                                            jbyteArray dst, jint len) {
    if (sampler == nullptr || dst == nullptr) {
        return -1;
    }
    jsize room = env->GetArrayLength(dst);
    jint wanted = len < room ? len : room;
    return sampler->buffers().read(handle, offset, wanted, [&](const uint8_t* bytes, int32_t n) {
        env->SetByteArrayRegion(dst, 0, n, reinterpret_cast<const jbyte*>(bytes));
    });
}

JNIEXPORT void JNICALL Java_io_heaptap_nativeagent_NativeAgent_snapshotClose0(JNIEnv*, jclass, jlong handle) {
    if (sampler != nullptr) sampler->buffers().close(handle);
}

JNIEXPORT jlongArray JNICALL Java_io_heaptap_nativeagent_NativeAgent_tableSizes0(JNIEnv* env, jclass) {
    jlong sizes[kTableSizes] = {};
    if (sampler != nullptr) {
        int64_t raw[kTableSizes];
        sampler->tableSizes(raw);
        for (int i = 0; i < kTableSizes; i++) sizes[i] = static_cast<jlong>(raw[i]);
    }
    jlongArray array = env->NewLongArray(kTableSizes);
    if (array != nullptr) {
        env->SetLongArrayRegion(array, 0, kTableSizes, sizes);
    }
    return array;
}

// Reference chains to the oldest tracked objects of the given sites. The result starts with a
// status byte: 1 and the chains, or 0 and a message (snapshotWriter.h, PathSearchDecoder.java).
JNIEXPORT jbyteArray JNICALL Java_io_heaptap_nativeagent_NativeAgent_referencePaths0(JNIEnv* env, jclass, jintArray sites,
                                                                                   jint maxPaths, jint maxDepth,
                                                                                   jint nodeBudget, jlong timeLimitNanos) {
    ByteWriter out;
    jsize siteCount = sites == nullptr ? 0 : env->GetArrayLength(sites);
    std::vector<jint> raw(static_cast<size_t>(siteCount));
    if (siteCount > 0) env->GetIntArrayRegion(sites, 0, siteCount, raw.data());
    std::vector<uint32_t> siteIds(raw.begin(), raw.end());
    std::sort(siteIds.begin(), siteIds.end());
    int wanted = maxPaths < 1 ? 1 : (maxPaths > ReferencePaths::kMaxTargets ? ReferencePaths::kMaxTargets : maxPaths);
    jobject targets[ReferencePaths::kMaxTargets] = {};
    std::string error;
    if (sampler == nullptr) {
        error = "heaptap's native agent is not initialised: " + initError;
    } else {
        int count = sampler->live().strongRefs(env, siteIds, wanted, targets);
        PathSearchLimits limits;
        limits.maxDepth = maxDepth;
        limits.nodeBudget = nodeBudget > 0 ? static_cast<uint32_t>(nodeBudget) : 1;
        limits.timeLimitNanos = timeLimitNanos > 0 ? timeLimitNanos : 1;
        ByteWriter paths;
        if (ReferencePaths::find(env, targets, count, limits, paths, error)) {
            out.append(paths);
        }
    }
    if (!error.empty()) {
        PathSearchWriter(out).refused(error);
    }
    const Bytes& bytes = out.bytes();
    jbyteArray array = env->NewByteArray(static_cast<jsize>(bytes.size()));
    if (array != nullptr) {
        env->SetByteArrayRegion(array, 0, static_cast<jsize>(bytes.size()), reinterpret_cast<const jbyte*>(bytes.data()));
    }
    return array;
}

}  // extern "C"
