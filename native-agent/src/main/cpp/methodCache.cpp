#include "methodCache.h"

#include <algorithm>

#include "memoryRelease.h"

namespace {

// Frees JVMTI-allocated memory when it goes out of scope.
template <typename T>
class JvmtiBuffer {
  public:
    explicit JvmtiBuffer(jvmtiEnv* jvmti) : jvmti_(jvmti) {}
    ~JvmtiBuffer() {
        if (ptr_ != nullptr) jvmti_->Deallocate(reinterpret_cast<unsigned char*>(ptr_));
    }
    JvmtiBuffer(const JvmtiBuffer&) = delete;
    JvmtiBuffer& operator=(const JvmtiBuffer&) = delete;
    T** out() { return &ptr_; }
    T* get() const { return ptr_; }

  private:
    jvmtiEnv* jvmti_;
    T* ptr_ = nullptr;
};

}  // namespace

bool MethodCache::resolve(jvmtiEnv* jvmti, jmethodID method, MethodInfo& info) {
    jclass holder = nullptr;
    if (jvmti->GetMethodDeclaringClass(method, &holder) != JVMTI_ERROR_NONE || holder == nullptr) {
        return false;
    }
    JvmtiBuffer<char> classSig(jvmti);
    if (jvmti->GetClassSignature(holder, classSig.out(), nullptr) != JVMTI_ERROR_NONE) {
        return false;
    }
    JvmtiBuffer<char> name(jvmti);
    if (jvmti->GetMethodName(method, name.out(), nullptr, nullptr) != JVMTI_ERROR_NONE) {
        return false;
    }
    info.classSignature = classSig.get();
    info.name = name.get();

    JvmtiBuffer<char> source(jvmti);
    if (jvmti->GetSourceFileName(holder, source.out()) == JVMTI_ERROR_NONE && source.get() != nullptr) {
        info.sourceFile = source.get();
    }
    jint entries = 0;
    JvmtiBuffer<jvmtiLineNumberEntry> table(jvmti);
    if (jvmti->GetLineNumberTable(method, &entries, table.out()) == JVMTI_ERROR_NONE) {
        info.lines.reserve(static_cast<size_t>(entries));
        for (jint i = 0; i < entries; i++) {
            info.lines.emplace_back(static_cast<int32_t>(table.get()[i].start_location),
                                    static_cast<int32_t>(table.get()[i].line_number));
        }
        std::sort(info.lines.begin(), info.lines.end());
    }
    return true;
}

void MethodCache::resolveAll(jvmtiEnv* jvmti, const jvmtiFrameInfo* frames, int32_t count) {
    std::vector<jmethodID> missing;
    {
        std::lock_guard<std::mutex> guard(lock_);
        for (int32_t i = 0; i < count; i++) {
            if (index_.find(frames[i].method) == index_.end() &&
                std::find(missing.begin(), missing.end(), frames[i].method) == missing.end()) {
                missing.push_back(frames[i].method);
            }
        }
    }
    // JVMTI calls happen without holding the lock (native safety rule).
    for (jmethodID method : missing) {
        MethodInfo info;
        bool ok = resolve(jvmti, method, info);
        std::lock_guard<std::mutex> guard(lock_);
        if (index_.find(method) != index_.end()) {
            continue;  // another thread resolved it meanwhile
        }
        if (!ok || methods_.size() >= maxMethods_) {
            unresolved_++;
            continue;
        }
        index_.emplace(method, static_cast<uint32_t>(methods_.size()));
        methods_.push_back(std::move(info));
    }
}

void MethodCache::limit(uint32_t maxMethods) {
    std::lock_guard<std::mutex> guard(lock_);
    maxMethods_ = maxMethods;
}

uint32_t MethodCache::indexOf(jmethodID method) {
    std::lock_guard<std::mutex> guard(lock_);
    auto it = index_.find(method);
    return it == index_.end() ? kNone : it->second;
}

void MethodCache::clear() {
    std::lock_guard<std::mutex> guard(lock_);
    releaseMemory(index_);
    releaseMemory(methods_);
    unresolved_ = 0;
}

MethodCache::Sizes MethodCache::sizes() {
    std::lock_guard<std::mutex> guard(lock_);
    Sizes sizes{methods_.size(), 0, 0};
    for (const MethodInfo& m : methods_) {
        sizes.nameBytes += m.classSignature.size() + m.name.size() + m.sourceFile.size();
        sizes.lineEntries += m.lines.size();
    }
    return sizes;
}

uint64_t MethodCache::memoryBytes() {
    std::lock_guard<std::mutex> guard(lock_);
    uint64_t bytes = methods_.capacity() * sizeof(MethodInfo) + index_.size() * 48 + index_.bucket_count() * 8;
    for (const MethodInfo& m : methods_) {
        bytes += m.classSignature.capacity() + m.name.capacity() + m.sourceFile.capacity() + m.lines.capacity() * 8;
    }
    return bytes;
}
