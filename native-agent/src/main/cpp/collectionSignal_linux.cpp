#include "collectionSignal.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <climits>
#include <ctime>

#include "monotonicClock.h"

static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t), "the futex word is the counter itself");

namespace {

uint32_t* word(std::atomic<uint32_t>& counter) {
    return reinterpret_cast<uint32_t*>(&counter);
}

}  // namespace

void CollectionSignal::post() {
    posts_.fetch_add(1, std::memory_order_acq_rel);
    syscall(SYS_futex, word(posts_), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
}

uint32_t CollectionSignal::await(uint32_t seen, int64_t timeoutMillis) {
    int64_t deadline = monotonicNanos() + timeoutMillis * 1000000;
    while (posts_.load(std::memory_order_acquire) == seen) {
        int64_t left = deadline - monotonicNanos();
        if (left <= 0) {
            break;
        }
        struct timespec relative;
        relative.tv_sec = static_cast<time_t>(left / 1000000000);
        relative.tv_nsec = static_cast<long>(left % 1000000000);
        // Returns at once if the counter is no longer `seen`; spurious and signal wake-ups loop.
        syscall(SYS_futex, word(posts_), FUTEX_WAIT_PRIVATE, seen, &relative, nullptr, 0);
    }
    return posts_.load(std::memory_order_acquire);
}
