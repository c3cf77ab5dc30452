// Synchronization.Mutex on carriers (issue #40). On Linux `Mutex.withLock` is inlined into the
// caller: a compare-and-swap of the lock word with the thread's id, cached per thread by the
// header function `_swift_stdlib_gettid` (one copy, and one thread-local cache, per Swift file that
// uses a Mutex); only contention leaves the caller, through `syscall(SYS_futex, FUTEX_LOCK_PI)` in
// libswiftSynchronization. So:
//   - Every lock and unlock asks `_swift_stdlib_gettid`. In a debug build each file's copy is a real
//     function in the executable: it is patched once to jump to `simrun_swift_gettid`, which tells
//     the run (`SIMRUN_LOCK_MUTEX`, a lock point under `--preempt`) and returns the thread's id. In
//     an optimised build the copy is inlined and only its cache miss reaches `syscall(SYS_gettid)`;
//     the caches of a carrier are cleared when it starts a job and after every lock point, so the
//     first Mutex use after each point is seen (`SIMRUN_LOCK_MUTEX_FIRST`), the same in every
//     process; later uses in that stretch are not, and the run says so.
//   - A lock word held by a paused carrier (a point inside its critical section) would make the
//     contender block in the kernel while holding the turn: `FUTEX_LOCK_PI` on a carrier sets the
//     waiters bit (so the holder's unlock reaches the kernel, and `FUTEX_UNLOCK_PI` here) and parks
//     the contender until the holder unlocks (`SIMRUN_LOCK_BLOCKED` / `SIMRUN_LOCK_RELEASED` on the
//     word, site `SIMRUN_SITE_MUTEX`). A word held by a thread outside the run is waited for for real.
// simrun's own Mutexes (its Swift modules, the C library's, Foundation's) are never points.
#if defined(__linux__)
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#endif

#include "CSimInterpose.h"

#if defined(__linux__) && !defined(__SANITIZE_THREAD__) && !(defined(__has_feature) && __has_feature(thread_sanitizer))

#include <dlfcn.h>
#include <link.h>
#include <linux/futex.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <execinfo.h>

typedef long (*syscall_fn)(long, ...);
static _Atomic(syscall_fn) real_syscall_slot;

static syscall_fn real_syscall(void) {
    syscall_fn fn = atomic_load_explicit(&real_syscall_slot, memory_order_acquire);
    if (__builtin_expect(fn == NULL, 0)) {
        fn = (syscall_fn)dlsym(RTLD_NEXT, "syscall");
        atomic_store_explicit(&real_syscall_slot, fn, memory_order_release);
    }
    return fn;
}

static __thread uint32_t own_tid __attribute__((tls_model("initial-exec")));

static uint32_t thread_id(void) {
    if (__builtin_expect(own_tid == 0, 0)) own_tid = (uint32_t)real_syscall()(SYS_gettid);
    return own_tid;
}

// MARK: Whose Mutex: the program's own code, not simrun's.

static int has_prefix(const char *text, const char *prefix) { return strncmp(text, prefix, strlen(prefix)) == 0; }

// simrun's Swift modules (mangled `$s` + length + name) and its C functions.
static int is_simruns(const char *name) {
    static const char *const prefixes[] = {"$s7SimCore",      "$s10SimCapture",    "$s9SimEngine", "$s9SimRunKit",
                                           "$s10SimTesting", "$s13SimBenchmarks", "simrun_"};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (has_prefix(name, prefixes[i])) return 1;
    return 0;
}

// Caller addresses seen, with the answer in the top byte, never shrunk; full, an address is
// classified again (slower, never different).
enum { site_slots = 1024 };
static _Atomic uintptr_t sites[site_slots];
static const uintptr_t address_mask = ((uintptr_t)1 << 56) - 1;

// Answers, by caller address: 1 the program's Mutex, 2 not, 3 the Synchronization module's own
// helper emitted into the executable (`withLock`'s `$defer`, shared by every caller): ask its caller.
static int lookup(uintptr_t key) {
    size_t slot = (size_t)(((key >> 2) * 0x9E3779B97F4A7C15ull) >> 54) & (site_slots - 1);
    for (int probe = 0; probe < 16; probe++) {
        uintptr_t seen = atomic_load_explicit(&sites[slot], memory_order_acquire);
        if ((seen & address_mask) == key) return (int)(seen >> 56);
        if (seen == 0) return 0;
        slot = (slot + 1) & (site_slots - 1);
    }
    return 0;
}

static void remember(uintptr_t key, int answer) {
    size_t slot = (size_t)(((key >> 2) * 0x9E3779B97F4A7C15ull) >> 54) & (site_slots - 1);
    uintptr_t entry = key | ((uintptr_t)answer << 56);
    for (int probe = 0; probe < 16; probe++) {
        uintptr_t expected = 0;
        if (atomic_compare_exchange_strong(&sites[slot], &expected, entry) || (expected & address_mask) == key) return;
        slot = (slot + 1) & (site_slots - 1);
    }
}

static int answer_for(const simrun_lock_hooks *hooks, const void *caller) {
    uintptr_t key = (uintptr_t)caller & address_mask;
    int answer = lookup(key);
    if (answer != 0) return answer;
    // Symbol tables are read unbound: their first read must not reach the hooks.
    simrun_locks_bind(NULL);
    answer = 2;
    if (simrun_lock_site(caller) == SIMRUN_SITE_PROGRAM) {
        const char *name = simrun_code_symbol((const char *)caller - 1, NULL);
        if (name != NULL && has_prefix(name, "$s15Synchronization")) answer = 3;
        else if (name == NULL || !is_simruns(name)) answer = 1;
    }
    simrun_locks_bind(hooks);
    remember(key, answer);
    return answer;
}

// The program's code behind a Mutex use whose thread-id request returns to `caller`, the function
// whose frame is `frame` (frame-pointer chain: [0] its caller's frame, [1] its own return address);
// NULL when the use is not the program's (simrun's own, a library's).
static const void *programs_caller(const simrun_lock_hooks *hooks, const void *caller, void *const *frame) {
    for (int depth = 0; depth < 4 && caller != NULL; depth++) {
        int answer = answer_for(hooks, caller);
        if (answer == 1) return caller;
        if (answer != 3 || frame == NULL) return NULL;
        // `frame` is the helper's: its return address is its caller's code.
        caller = frame[1];
        void *const *next = (void *const *)frame[0];
        if (next == NULL || (uintptr_t)next <= (uintptr_t)frame || (uintptr_t)next - (uintptr_t)frame > (1u << 20))
            next = NULL;
        frame = next;
    }
    return NULL;
}

// MARK: The thread-id caches of inlined copies (optimised builds)

enum { max_caches = 256 };
static uintptr_t cache_offsets[max_caches];  // offsets in the executable's thread-local block
static int cache_count;
static __thread char *own_tls_block __attribute__((tls_model("initial-exec")));

static int find_executable_tls(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    *(void **)data = info->dlpi_tls_data;
    return 1;  // the first object is the executable
}

void simrun_mutex_forget_thread_ids(void) {
    if (cache_count == 0) return;
    if (own_tls_block == NULL) {
        void *block = NULL;
        dl_iterate_phdr(find_executable_tls, &block);
        if (block == NULL) return;
        own_tls_block = block;
    }
    for (int i = 0; i < cache_count; i++) *(volatile uint32_t *)(own_tls_block + cache_offsets[i]) = 0;
}

// MARK: The patch of each debug copy

uint32_t simrun_swift_gettid(void);

static int patch(uintptr_t function) {
#if defined(__x86_64__)
    // `jmp rel32` over the first five bytes, stored as one aligned eight-byte word.
    if (function & 7) return 0;
    intptr_t distance = (intptr_t)&simrun_swift_gettid - (intptr_t)(function + 5);
    if (distance != (int32_t)distance) return 0;
    uint64_t word;
    memcpy(&word, (const void *)function, 8);
    unsigned char bytes[8];
    memcpy(bytes, &word, 8);
    bytes[0] = 0xE9;
    int32_t relative = (int32_t)distance;
    memcpy(bytes + 1, &relative, 4);
    memcpy(&word, bytes, 8);
#elif defined(__aarch64__)
    // `b imm26` over the first instruction.
    if (function & 3) return 0;
    intptr_t distance = (intptr_t)&simrun_swift_gettid - (intptr_t)function;
    if (distance < -(1 << 27) || distance >= (1 << 27)) return 0;
    uint32_t word = 0x14000000u | ((uint32_t)(distance >> 2) & 0x03FFFFFFu);
#else
    (void)function;
    return 0;
#endif
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t first = function & ~(uintptr_t)(page - 1);
    size_t length = (size_t)((function + 8 - first + (uintptr_t)page - 1) & ~(uintptr_t)(page - 1));
    if (mprotect((void *)first, length, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) return 0;
    __atomic_store_n((__typeof__(word) *)function, word, __ATOMIC_SEQ_CST);
    mprotect((void *)first, length, PROT_READ | PROT_EXEC);
    __builtin___clear_cache((char *)function, (char *)function + 8);
    return 1;
}

static atomic_int prepared;  // 0 not yet, 1 in progress, 2 done
static int patched_copies, inlined_copies;

void simrun_mutex_prepare(void) {
    // Switched off: no copy is patched, and none is counted.
    if (simrun_interpose_off()) {
        atomic_store(&prepared, 2);
        return;
    }
    int expected = 0;
    if (!atomic_compare_exchange_strong(&prepared, &expected, 1)) {
        while (atomic_load(&prepared) != 2) usleep(100);
        return;
    }
    uintptr_t functions[max_caches];
    int count = simrun_executable_symbols("_swift_stdlib_gettid", SIMRUN_SYMBOL_FUNCTION, functions, max_caches);
    for (int i = 0; i < count && i < max_caches; i++) patched_copies += patch(functions[i]);
    // The caches of copies not patched (inlined, or not patchable here) are cleared per job instead.
    int caches = simrun_executable_symbols("_swift_stdlib_gettid.tid", SIMRUN_SYMBOL_THREAD_LOCAL, cache_offsets,
                                           max_caches);
    cache_count = caches < max_caches ? caches : max_caches;
    inlined_copies = cache_count > patched_copies ? cache_count - patched_copies : 0;
    atomic_store(&prepared, 2);
}

int simrun_mutex_copies(int *patched, int *inlined) {
    if (patched) *patched = patched_copies;
    if (inlined) *inlined = inlined_copies;
    return atomic_load(&prepared) == 2;
}

// MARK: Uses, and contention

static inline void report_use(int operation, const void *caller, void *const *frame) {
    const simrun_lock_hooks *hooks = simrun_locks_binding();
    if (hooks == NULL || simrun_interpose_off()) return;
    const void *programs = programs_caller(hooks, caller, frame);
    if (programs == NULL) return;
    simrun_locks_bind(NULL);
    hooks->event(hooks->context, operation, programs, programs, SIMRUN_SITE_MUTEX);
    simrun_locks_bind(hooks);
    simrun_mutex_forget_thread_ids();
}

__attribute__((noinline)) uint32_t simrun_swift_gettid(void) {
    // Entered by a jump from the copy's first instruction: this frame's parent is the Mutex user's.
    void *const *frame = (void *const *)__builtin_frame_address(0);
    report_use(SIMRUN_LOCK_MUTEX, __builtin_return_address(0), frame != NULL ? (void *const *)frame[0] : NULL);
    return thread_id();
}

// Whether a contended lock is the program's: the first program frame above the library's slow path
// (simrun's own Mutexes, shared by concurrent runs, are waited for for real: their holders are never
// paused inside them).
static int contender_is_programs(const simrun_lock_hooks *hooks) {
    void *frames[16];
    simrun_locks_bind(NULL);
    int count = backtrace(frames, 16);
    simrun_locks_bind(hooks);
    int library = 0;
    for (int i = 0; i < count; i++) {
        int programs = simrun_address_is_program(frames[i]);
        if (!library) {
            library = !programs;
            continue;
        }
        if (!programs) continue;
        int answer = answer_for(hooks, frames[i]);
        if (answer != 3) return answer == 1;
    }
    return 0;
}

// A contended lock on a carrier: park while a carrier holds the word, else let the kernel decide.
static long lock_pi(const simrun_lock_hooks *hooks, _Atomic uint32_t *word, long op, const void *caller) {
    if (!contender_is_programs(hooks)) return real_syscall()(SYS_futex, word, op, 0, NULL, NULL, 0);
    for (;;) {
        uint32_t value = atomic_load_explicit(word, memory_order_relaxed);
        uint32_t owner = value & FUTEX_TID_MASK;
        if (owner == 0 || owner == thread_id() || !simrun_is_carrier_thread((int)owner))
            return real_syscall()(SYS_futex, word, op, 0, NULL, NULL, 0);
        if (!(value & FUTEX_WAITERS) &&
            !atomic_compare_exchange_strong_explicit(word, &value, value | FUTEX_WAITERS, memory_order_relaxed,
                                                     memory_order_relaxed))
            continue;
        simrun_locks_bind(NULL);
        hooks->event(hooks->context, SIMRUN_LOCK_BLOCKED, (const void *)word, caller, SIMRUN_SITE_MUTEX);
        simrun_locks_bind(hooks);
    }
}

long syscall(long number, ...) {
    va_list arguments;
    va_start(arguments, number);
    long a = va_arg(arguments, long), b = va_arg(arguments, long), c = va_arg(arguments, long);
    long d = va_arg(arguments, long), e = va_arg(arguments, long), f = va_arg(arguments, long);
    va_end(arguments);
    const simrun_lock_hooks *hooks = simrun_locks_binding();
    // With the layer switched off (`SIMRUN_INTERPOSE=off`) no Mutex use reaches the run.
    if (__builtin_expect(hooks != NULL, 0) && simrun_interpose_off()) hooks = NULL;
    if (__builtin_expect(hooks == NULL, 1) || (number != SYS_gettid && number != SYS_futex))
        return real_syscall()(number, a, b, c, d, e, f);
    const void *caller = __builtin_return_address(0);
    if (number == SYS_gettid) {
        void *const *frame = (void *const *)__builtin_frame_address(0);
        report_use(SIMRUN_LOCK_MUTEX_FIRST, caller, frame != NULL ? (void *const *)frame[0] : NULL);
        return (long)thread_id();
    }
    int command = (int)b & FUTEX_CMD_MASK;
    if (command == FUTEX_LOCK_PI) return lock_pi(hooks, (_Atomic uint32_t *)a, b, caller);
    long status = real_syscall()(number, a, b, c, d, e, f);
    if (command == FUTEX_UNLOCK_PI && status == 0 && hooks->waiters != NULL && *hooks->waiters > 0) {
        simrun_locks_bind(NULL);
        hooks->event(hooks->context, SIMRUN_LOCK_RELEASED, (const void *)a, caller, SIMRUN_SITE_MUTEX);
        simrun_locks_bind(hooks);
    }
    return status;
}

int simrun_mutex_owner_of_word(const void *word) {
    return (int)(__atomic_load_n((const uint32_t *)word, __ATOMIC_RELAXED) & FUTEX_TID_MASK);
}

#else

void simrun_mutex_prepare(void) {}
int simrun_mutex_copies(int *patched, int *inlined) {
    if (patched) *patched = 0;
    if (inlined) *inlined = 0;
    return 0;
}
void simrun_mutex_forget_thread_ids(void) {}
int simrun_mutex_owner_of_word(const void *word) {
    (void)word;
    return 0;
}

#endif
