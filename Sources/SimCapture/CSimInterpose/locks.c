// Carriers and locks (issue #31, DESIGN §11): the turn that carrier threads pass to one another, and
// the interposed pthread mutex and condition functions that make lock operations on a carrier
// points where the scheduler may switch carriers (`--preempt`).
//
// Linux (ELF): the definitions below are exported from the executable, so every library's PLT call
// to pthread_mutex_lock/trylock/unlock and pthread_cond_wait/signal/broadcast lands here (NSLock,
// NSRecursiveLock, NSCondition, the concurrency runtime's status-record and task-group locks,
// pthread wrappers in the user's code). On a thread bound with `simrun_locks_bind` they call the
// run's hooks; anywhere else they forward to the C library's function, resolved once. Elsewhere
// (macOS) the lock functions are not defined here and `simrun_locks_interposed` says 0.

#if defined(__linux__)
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#endif

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CSimInterpose.h"

// MARK: - The turn: one wait/post pair per carrier

#if defined(__linux__)
#include <semaphore.h>
struct simrun_baton {
    sem_t sem;
};
#else
struct simrun_baton {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int posted;
};
#endif

// Real pthread functions for the batons themselves: never through the interposers below.
#if defined(__linux__)
#include <dlfcn.h>
typedef int (*mutex_fn)(pthread_mutex_t *);
typedef int (*cwait_fn)(pthread_cond_t *, pthread_mutex_t *);
typedef int (*cond_fn)(pthread_cond_t *);
static _Atomic(mutex_fn) real_lock, real_trylock, real_unlock;
static _Atomic(cwait_fn) real_cwait;
static _Atomic(cond_fn) real_csignal, real_cbroadcast;
static _Atomic int resolving;

static void resolve_locks(void) {
    if (atomic_load_explicit(&real_unlock, memory_order_acquire) != NULL) return;
    if (atomic_exchange(&resolving, 1)) return;  // a lock taken inside dlsym: see forward_*
    atomic_store(&real_lock, (mutex_fn)dlsym(RTLD_NEXT, "pthread_mutex_lock"));
    atomic_store(&real_trylock, (mutex_fn)dlsym(RTLD_NEXT, "pthread_mutex_trylock"));
    // Plain dlsym finds the GLIBC_2.2.5 compatibility condvar; ask for the current one.
    cwait_fn w = (cwait_fn)dlvsym(RTLD_NEXT, "pthread_cond_wait", "GLIBC_2.3.2");
    cond_fn s = (cond_fn)dlvsym(RTLD_NEXT, "pthread_cond_signal", "GLIBC_2.3.2");
    cond_fn b = (cond_fn)dlvsym(RTLD_NEXT, "pthread_cond_broadcast", "GLIBC_2.3.2");
    if (w == NULL) w = (cwait_fn)dlsym(RTLD_NEXT, "pthread_cond_wait");
    if (s == NULL) s = (cond_fn)dlsym(RTLD_NEXT, "pthread_cond_signal");
    if (b == NULL) b = (cond_fn)dlsym(RTLD_NEXT, "pthread_cond_broadcast");
    atomic_store(&real_cwait, w);
    atomic_store(&real_csignal, s);
    atomic_store(&real_cbroadcast, b);
    atomic_store_explicit(&real_unlock, (mutex_fn)dlsym(RTLD_NEXT, "pthread_mutex_unlock"), memory_order_release);
}

__attribute__((constructor(101))) static void resolve_locks_early(void) { resolve_locks(); }

static inline mutex_fn get(_Atomic(mutex_fn) *slot) {
    mutex_fn fn = atomic_load_explicit(slot, memory_order_acquire);
    if (__builtin_expect(fn == NULL, 0)) {
        resolve_locks();
        fn = atomic_load_explicit(slot, memory_order_acquire);
    }
    return fn;
}
#endif

simrun_baton *simrun_baton_create(void) {
    simrun_baton *baton = calloc(1, sizeof(simrun_baton));
    if (baton == NULL) return NULL;
#if defined(__linux__)
    sem_init(&baton->sem, 0, 0);
#else
    pthread_mutex_init(&baton->lock, NULL);
    pthread_cond_init(&baton->cond, NULL);
#endif
    return baton;
}

void simrun_baton_wait(simrun_baton *baton) {
#if defined(__linux__)
    while (sem_wait(&baton->sem) != 0) {
    }
#else
    pthread_mutex_lock(&baton->lock);
    while (!baton->posted) pthread_cond_wait(&baton->cond, &baton->lock);
    baton->posted = 0;
    pthread_mutex_unlock(&baton->lock);
#endif
}

void simrun_baton_post(simrun_baton *baton) {
#if defined(__linux__)
    sem_post(&baton->sem);
#else
    pthread_mutex_lock(&baton->lock);
    baton->posted = 1;
    pthread_cond_signal(&baton->cond);
    pthread_mutex_unlock(&baton->lock);
#endif
}

struct spawn_args {
    void (*body)(void *);
    void *argument;
};

static void *spawn_entry(void *raw) {
    struct spawn_args args = *(struct spawn_args *)raw;
    free(raw);
    args.body(args.argument);
    return NULL;
}

int simrun_thread_spawn(void (*body)(void *), void *argument) {
    struct spawn_args *args = malloc(sizeof(struct spawn_args));
    if (args == NULL) return ENOMEM;
    args->body = body;
    args->argument = argument;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    // Jobs of Swift code run here: the main thread's usual 8 MiB (address space, not memory).
    pthread_attr_setstacksize(&attributes, 8u << 20);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    // simrun's own threads never become a run's: past the interposer, straight to the C library.
    int status = simrun_real_pthread_create(&thread, &attributes, spawn_entry, args);
    pthread_attr_destroy(&attributes);
    if (status != 0) free(args);
    return status;
}

// MARK: - This thread's binding

static __thread const simrun_lock_hooks *bound_hooks __attribute__((tls_model("initial-exec")));
static __thread const simrun_lock_hooks *given_hooks __attribute__((tls_model("initial-exec")));
static __thread void *bound_turn __attribute__((tls_model("initial-exec")));

// With the layer switched off (`SIMRUN_INTERPOSE=off`) the interposers see no hooks and forward every
// call; the binding SimCapture gave is still what it reads back.
void simrun_locks_bind(const simrun_lock_hooks *hooks) {
    given_hooks = hooks;
    bound_hooks = hooks != NULL && simrun_interpose_off() ? NULL : hooks;
}
const simrun_lock_hooks *simrun_locks_binding(void) { return given_hooks; }
void simrun_turn_bind(void *run) { bound_turn = run; }
void *simrun_turn_binding(void) { return bound_turn; }

static _Atomic uint64_t lock_points;
uint64_t simrun_locks_points(void) { return atomic_load_explicit(&lock_points, memory_order_relaxed); }

#if defined(__linux__) && !defined(__SANITIZE_THREAD__) && !(defined(__has_feature) && __has_feature(thread_sanitizer))

#include <link.h>

#include <sys/syscall.h>
#include <unistd.h>

// MARK: The runtime's one-time work (issue #41): a lock point must not depend on the process's past.
// A carrier is in one-time work while it runs a lazy global's initialiser (`swift_once`, which the
// executable and the system libraries reach through the PLT) or holds a lock libswiftCore took
// (metadata and conformance caches). No lock point pauses there, and libswiftCore's own locks are
// taken for real: no carrier ever pauses while holding one, so waiting for one never waits on a
// paused carrier.

static __thread int one_time_depth __attribute__((tls_model("initial-exec")));
enum { max_runtime_held = 16 };
static __thread pthread_mutex_t *runtime_held[max_runtime_held] __attribute__((tls_model("initial-exec")));
static __thread int runtime_held_count __attribute__((tls_model("initial-exec")));

int simrun_locks_one_time_depth(void) { return one_time_depth; }

// MARK: The locks each carrier holds, for the run's lock order (issue #41): lock-point sites only.

enum { max_held = 16 };
static __thread pthread_mutex_t *held[max_held] __attribute__((tls_model("initial-exec")));
static __thread int held_count __attribute__((tls_model("initial-exec")));

int simrun_locks_held(const void **mutexes, int capacity) {
    int kept = held_count < max_held ? held_count : max_held;
    for (int k = 0; k < kept && k < capacity; k++) mutexes[k] = held[k];
    return held_count;
}

static void note_held(pthread_mutex_t *mutex) {
    if (held_count < max_held) held[held_count] = mutex;
    held_count++;
}

static void note_unheld(pthread_mutex_t *mutex) {
    if (__builtin_expect(held_count == 0, 1)) return;
    int kept = held_count < max_held ? held_count : max_held;
    for (int k = kept - 1; k >= 0; k--) {
        if (held[k] != mutex) continue;
        for (int j = k; j + 1 < kept; j++) held[j] = held[j + 1];
        held_count--;
        return;
    }
    if (held_count > max_held) held_count--;
}

static void note_runtime_acquired(pthread_mutex_t *mutex) {
    if (runtime_held_count < max_runtime_held) runtime_held[runtime_held_count] = mutex;
    runtime_held_count++;
    one_time_depth++;
}

static void note_released(pthread_mutex_t *mutex) {
    if (__builtin_expect(runtime_held_count == 0, 1)) return;
    int kept = runtime_held_count < max_runtime_held ? runtime_held_count : max_runtime_held;
    for (int k = kept - 1; k >= 0; k--) {
        if (runtime_held[k] != mutex) continue;
        runtime_held[k] = runtime_held[kept - 1];
        runtime_held_count--;
        one_time_depth--;
        return;
    }
    // Past the bound the mutex was not kept: count it down all the same (locks nest).
    if (runtime_held_count > max_runtime_held) {
        runtime_held_count--;
        one_time_depth--;
    }
}

typedef void (*swift_once_function)(void *);
typedef void (*swift_once_implementation)(void *, swift_once_function, void *);
static _Atomic(swift_once_implementation) real_swift_once;

void swift_once(void *predicate, swift_once_function function, void *context) {
    swift_once_implementation real = atomic_load_explicit(&real_swift_once, memory_order_acquire);
    if (__builtin_expect(real == NULL, 0)) {
        real = (swift_once_implementation)dlsym(RTLD_NEXT, "swift_once");
        atomic_store_explicit(&real_swift_once, real, memory_order_release);
    }
    if (__builtin_expect(bound_hooks == NULL, 1)) {
        real(predicate, function, context);
        return;
    }
    one_time_depth++;
    real(predicate, function, context);
    one_time_depth--;
}

// MARK: Carrier threads, by kernel thread id: who may hold a mutex a carrier waits for.

// An open-addressing set of thread ids. Carriers abandoned by runs that ended while they were paused
// (a deadlock leaves every one of its carriers so) stay in it for good: a process that explains a
// deadlock runs it a thousand times and keeps thousands. Unregistering leaves a tombstone (-1).
// Bounded: a process with more carrier threads than this would not run anyway (each holds a stack).
enum { carrier_thread_slots = 1 << 16 };
static _Atomic pid_t carrier_threads[carrier_thread_slots];

static size_t thread_slot(pid_t tid) { return ((size_t)(uint32_t)tid * 2654435761u) & (carrier_thread_slots - 1); }

void simrun_carrier_thread_register(void) {
    pid_t me = (pid_t)syscall(SYS_gettid);
    size_t slot = thread_slot(me);
    for (size_t probe = 0; probe < carrier_thread_slots; probe++, slot = (slot + 1) & (carrier_thread_slots - 1)) {
        pid_t seen = atomic_load_explicit(&carrier_threads[slot], memory_order_relaxed);
        if (seen == me) return;
        if (seen != 0 && seen != -1) continue;
        if (atomic_compare_exchange_strong(&carrier_threads[slot], &seen, me)) return;
        if (atomic_load_explicit(&carrier_threads[slot], memory_order_relaxed) == me) return;
    }
}

void simrun_carrier_thread_unregister(void) {
    pid_t me = (pid_t)syscall(SYS_gettid);
    size_t slot = thread_slot(me);
    for (size_t probe = 0; probe < carrier_thread_slots; probe++, slot = (slot + 1) & (carrier_thread_slots - 1)) {
        pid_t seen = atomic_load_explicit(&carrier_threads[slot], memory_order_relaxed);
        if (seen == 0) return;
        if (seen == me) {
            atomic_store_explicit(&carrier_threads[slot], -1, memory_order_relaxed);
            return;
        }
    }
}

int simrun_is_carrier_thread(int tid) {
    size_t slot = thread_slot(tid);
    for (size_t probe = 0; probe < carrier_thread_slots; probe++, slot = (slot + 1) & (carrier_thread_slots - 1)) {
        pid_t seen = atomic_load_explicit(&carrier_threads[slot], memory_order_relaxed);
        if (seen == tid) return 1;
        if (seen == 0) return 0;
    }
    return 0;
}

// Whether `mutex` is held by a carrier thread (the C library keeps the owner's thread id in it);
// where that cannot be read, every holder is taken for a carrier (park, never block for real).
static int held_by_carrier(pthread_mutex_t *mutex) {
#if defined(__GLIBC__)
    pid_t owner = __atomic_load_n(&mutex->__data.__owner, __ATOMIC_RELAXED);
    if (owner == 0) return 1;  // just released, or a kind without an owner: retry through the model
    return simrun_is_carrier_thread(owner);
#else
    (void)mutex;
    return 1;
#endif
}

// A hook runs unbound: the scheduler's own code (and whatever it calls) must forward its locks.
static inline void call_hook(const simrun_lock_hooks *hooks, int op, const void *object, const void *caller, int site) {
    bound_hooks = NULL;
    hooks->event(hooks->context, op, object, caller, site);
    bound_hooks = hooks;
    // After a point the next use of a Mutex inlined by an optimised build is seen again (mutex.c).
    simrun_mutex_forget_thread_ids();
}

// Acquires without blocking on a paused carrier: a mutex held by a carrier parks this one until it is
// released; one held by a thread outside the run is waited for for real (it is not paused by us).
static int acquire(const simrun_lock_hooks *hooks, pthread_mutex_t *mutex, const void *caller, int site) {
    mutex_fn trylock = get(&real_trylock);
    for (;;) {
        int status = trylock(mutex);
        if (status != EBUSY) return status;
        if (!held_by_carrier(mutex)) return get(&real_lock)(mutex);
        call_hook(hooks, SIMRUN_LOCK_BLOCKED, mutex, caller, site);
    }
}

// Classified unbound: reading a symbol table the first time must not reach the hooks.
static inline int site_of(const simrun_lock_hooks *hooks, const void *caller) {
    bound_hooks = NULL;
    int site = simrun_lock_site(caller);
    bound_hooks = hooks;
    return site;
}

static inline int is_point(const simrun_lock_hooks *hooks, int site) {
    return hooks->preempt && one_time_depth == 0 && simrun_lock_site_is_point(site);
}

// After a lock-point site's mutex was taken: an edge of the run's lock order from every lock the
// carrier already holds (reported once per acquisition), then it is held.
static inline void note_taken(const simrun_lock_hooks *hooks, pthread_mutex_t *mutex, const void *caller, int site) {
    if (!hooks->track_order || one_time_depth != 0 || !simrun_lock_site_is_point(site)) return;
    if (held_count > 0) call_hook(hooks, SIMRUN_LOCK_ORDER, mutex, caller, site);
    note_held(mutex);
}

int pthread_mutex_lock(pthread_mutex_t *mutex) {
    const simrun_lock_hooks *hooks = bound_hooks;
    if (__builtin_expect(hooks == NULL, 1)) {
        mutex_fn fn = get(&real_lock);
        return fn != NULL ? fn(mutex) : 0;  // NULL only while dlsym itself resolves (single-threaded)
    }
    const void *caller = __builtin_return_address(0);
    int site = site_of(hooks, caller);
    if (site == SIMRUN_SITE_RUNTIME) {
        int status = get(&real_lock)(mutex);
        if (status == 0) note_runtime_acquired(mutex);
        return status;
    }
    if (is_point(hooks, site)) {
        atomic_fetch_add_explicit(&lock_points, 1, memory_order_relaxed);
        call_hook(hooks, SIMRUN_LOCK_ACQUIRE, mutex, caller, site);
    }
    int status = acquire(hooks, mutex, caller, site);
    if (status == 0) note_taken(hooks, mutex, caller, site);
    return status;
}

int pthread_mutex_trylock(pthread_mutex_t *mutex) {
    const simrun_lock_hooks *hooks = bound_hooks;
    mutex_fn fn = get(&real_trylock);
    if (__builtin_expect(hooks == NULL, 1)) return fn != NULL ? fn(mutex) : 0;
    const void *caller = __builtin_return_address(0);
    int site = site_of(hooks, caller);
    if (site == SIMRUN_SITE_RUNTIME) {
        int status = fn(mutex);
        if (status == 0) note_runtime_acquired(mutex);
        return status;
    }
    if (is_point(hooks, site)) {
        atomic_fetch_add_explicit(&lock_points, 1, memory_order_relaxed);
        call_hook(hooks, SIMRUN_LOCK_ACQUIRE, mutex, caller, site);
    }
    int status = fn(mutex);
    if (status == 0) note_taken(hooks, mutex, caller, site);
    return status;
}

int pthread_mutex_unlock(pthread_mutex_t *mutex) {
    mutex_fn fn = get(&real_unlock);
    int status = fn != NULL ? fn(mutex) : 0;
    const simrun_lock_hooks *hooks = bound_hooks;
    if (__builtin_expect(hooks != NULL, 0) && status == 0) {
        note_released(mutex);
        note_unheld(mutex);
        if (hooks->waiters != NULL && *hooks->waiters > 0)
            call_hook(hooks, SIMRUN_LOCK_RELEASED, mutex, __builtin_return_address(0), SIMRUN_SITE_LIBRARY);
    }
    return status;
}

// On a carrier a condition wait is modelled: release the mutex, park until a carrier signals the
// condition, take the mutex again (a real wait would hold the turn while the signaller cannot run).
int pthread_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex) {
    const simrun_lock_hooks *hooks = bound_hooks;
    if (__builtin_expect(hooks == NULL, 1)) {
        get(&real_unlock);
        return atomic_load(&real_cwait)(cond, mutex);
    }
    const void *caller = __builtin_return_address(0);
    int site = site_of(hooks, caller);
    int status = get(&real_unlock)(mutex);
    if (status != 0) return status;
    int runtime = site == SIMRUN_SITE_RUNTIME;
    if (runtime) note_released(mutex);
    note_unheld(mutex);
    if (hooks->waiters != NULL && *hooks->waiters > 0) call_hook(hooks, SIMRUN_LOCK_RELEASED, mutex, caller, site);
    call_hook(hooks, SIMRUN_LOCK_CONDITION_WAIT, cond, caller, site);
    if (runtime) {
        status = get(&real_lock)(mutex);
        if (status == 0) note_runtime_acquired(mutex);
        return status;
    }
    status = acquire(hooks, mutex, caller, site);
    if (status == 0) note_taken(hooks, mutex, caller, site);
    return status;
}

typedef int (*mutex_init_fn)(pthread_mutex_t *, const pthread_mutexattr_t *);
static _Atomic(mutex_init_fn) real_init;

// Where the mutex being initialised was made: return addresses read from the frame-pointer chain,
// which Swift code keeps (Foundation's unwind tables stop the C library's unwinder inside
// NSRecursiveLock's initialiser). Read while the INIT hook runs (`simrun_lock_init_frames`).
enum { max_init_frames = 12 };
static __thread const void *init_frames[max_init_frames] __attribute__((tls_model("initial-exec")));
static __thread int init_frame_count __attribute__((tls_model("initial-exec")));

// Async frames mark their saved frame pointer with bit 60 (the Swift async extended frame).
#define SIMRUN_LOCK_FRAME_MASK (~((uintptr_t)1 << 60))

__attribute__((noinline)) static int frame_chain(const void **frames, void *const *frame, int capacity) {
    int count = 0;
    while (count < capacity) {
        frames[count++] = frame[1];
        void *const *next = (void *const *)((uintptr_t)frame[0] & SIMRUN_LOCK_FRAME_MASK);
        if ((uintptr_t)next <= (uintptr_t)frame || (uintptr_t)next - (uintptr_t)frame > (1u << 20) ||
            ((uintptr_t)next & (sizeof(void *) - 1)))
            break;
        frame = next;
    }
    return count;
}

int simrun_lock_init_frames(const void **frames, int capacity) {
    int count = init_frame_count < capacity ? init_frame_count : capacity;
    for (int k = 0; k < count; k++) frames[k] = init_frames[k];
    return count;
}

// Where a mutex is made names its class in a run's lock order: every `NSLock()` of one property of
// one type is one class, as Linux's lock validator names classes by where locks are initialised.
int pthread_mutex_init(pthread_mutex_t *mutex, const pthread_mutexattr_t *attributes) {
    mutex_init_fn fn = atomic_load_explicit(&real_init, memory_order_acquire);
    if (__builtin_expect(fn == NULL, 0)) {
        if (atomic_load(&resolving) && atomic_load(&real_unlock) == NULL) {
            memset(mutex, 0, sizeof *mutex);  // inside dlsym's own first call: a default mutex
            return 0;
        }
        fn = (mutex_init_fn)dlsym(RTLD_NEXT, "pthread_mutex_init");
        atomic_store_explicit(&real_init, fn, memory_order_release);
    }
    int status = fn(mutex, attributes);
    const simrun_lock_hooks *hooks = bound_hooks;
    if (__builtin_expect(hooks != NULL, 0) && status == 0 && hooks->track_order && one_time_depth == 0) {
        const void *caller = __builtin_return_address(0);
        int site = site_of(hooks, caller);
        if (simrun_lock_site_is_point(site)) {
            init_frame_count = frame_chain(init_frames, (void *const *)__builtin_frame_address(0), max_init_frames);
            call_hook(hooks, SIMRUN_LOCK_INIT, mutex, caller, site);
            init_frame_count = 0;
        }
    }
    return status;
}

int pthread_cond_signal(pthread_cond_t *cond) {
    const simrun_lock_hooks *hooks = bound_hooks;
    if (__builtin_expect(hooks != NULL, 0))
        call_hook(hooks, SIMRUN_LOCK_SIGNAL, cond, __builtin_return_address(0), SIMRUN_SITE_LIBRARY);
    get(&real_unlock);
    return atomic_load(&real_csignal)(cond);
}

int pthread_cond_broadcast(pthread_cond_t *cond) {
    const simrun_lock_hooks *hooks = bound_hooks;
    if (__builtin_expect(hooks != NULL, 0))
        call_hook(hooks, SIMRUN_LOCK_BROADCAST, cond, __builtin_return_address(0), SIMRUN_SITE_LIBRARY);
    get(&real_unlock);
    return atomic_load(&real_cbroadcast)(cond);
}

int simrun_locks_interposed(void) {
    return !simrun_interpose_off() && dlsym(RTLD_DEFAULT, "pthread_mutex_lock") == (void *)&pthread_mutex_lock
        && dlsym(RTLD_DEFAULT, "pthread_mutex_unlock") == (void *)&pthread_mutex_unlock
        && dlsym(RTLD_DEFAULT, "pthread_cond_wait") == (void *)&pthread_cond_wait;
}

#else

// macOS (two-level namespace: a dyld-interposing library would be needed), and thread-sanitizer
// builds (TSan intercepts the same functions to see synchronisation): locks are not interposed.
int simrun_locks_interposed(void) { return 0; }
void simrun_carrier_thread_register(void) {}
void simrun_carrier_thread_unregister(void) {}
int simrun_is_carrier_thread(int tid) {
    (void)tid;
    return 0;
}
int simrun_locks_one_time_depth(void) { return 0; }


#endif
