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
    int status = pthread_create(&thread, &attributes, spawn_entry, args);
    pthread_attr_destroy(&attributes);
    if (status != 0) free(args);
    return status;
}

// MARK: - This thread's binding

static __thread const simrun_lock_hooks *bound_hooks __attribute__((tls_model("initial-exec")));
static __thread void *bound_turn __attribute__((tls_model("initial-exec")));

void simrun_locks_bind(const simrun_lock_hooks *hooks) { bound_hooks = hooks; }
const simrun_lock_hooks *simrun_locks_binding(void) { return bound_hooks; }
void simrun_turn_bind(void *run) { bound_turn = run; }
void *simrun_turn_binding(void) { return bound_turn; }

static _Atomic uint64_t lock_points;
uint64_t simrun_locks_points(void) { return atomic_load_explicit(&lock_points, memory_order_relaxed); }

#if defined(__linux__) && !defined(__SANITIZE_THREAD__) && !(defined(__has_feature) && __has_feature(thread_sanitizer))

#include <link.h>

// MARK: Callers' libraries: libswiftCore's own locks (metadata caches, conformance tables) are not
// scheduling points (noise), though they still never block a carrier for real.

static struct {
    uintptr_t low, high;
} core_ranges[8];
static _Atomic int core_range_count = -1;

static int note_core(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    int *count = data;
    const char *name = info->dlpi_name;
    if (name == NULL || strstr(name, "libswiftCore.") == NULL) return 0;
    for (int k = 0; k < info->dlpi_phnum && *count < 8; k++) {
        if (info->dlpi_phdr[k].p_type != PT_LOAD || !(info->dlpi_phdr[k].p_flags & PF_X)) continue;
        uintptr_t low = info->dlpi_addr + info->dlpi_phdr[k].p_vaddr;
        core_ranges[*count].low = low;
        core_ranges[*count].high = low + info->dlpi_phdr[k].p_memsz;
        *count += 1;
    }
    return 0;
}

static int is_core_caller(const void *caller) {
    int count = atomic_load_explicit(&core_range_count, memory_order_acquire);
    if (count < 0) {
        count = 0;
        dl_iterate_phdr(note_core, &count);
        atomic_store_explicit(&core_range_count, count, memory_order_release);
    }
    for (int k = 0; k < count; k++)
        if ((uintptr_t)caller >= core_ranges[k].low && (uintptr_t)caller < core_ranges[k].high) return 1;
    return 0;
}

// A hook runs unbound: the scheduler's own code (and whatever it calls) must forward its locks.
static inline void call_hook(const simrun_lock_hooks *hooks, int op, const void *object, const void *caller) {
    bound_hooks = NULL;
    hooks->event(hooks->context, op, object, caller);
    bound_hooks = hooks;
}

// Acquires without ever blocking the thread: a mutex held by a paused carrier parks this one.
static int acquire(const simrun_lock_hooks *hooks, pthread_mutex_t *mutex, const void *caller) {
    mutex_fn trylock = get(&real_trylock);
    for (;;) {
        int status = trylock(mutex);
        if (status != EBUSY) return status;
        call_hook(hooks, SIMRUN_LOCK_BLOCKED, mutex, caller);
    }
}

int pthread_mutex_lock(pthread_mutex_t *mutex) {
    const simrun_lock_hooks *hooks = bound_hooks;
    if (__builtin_expect(hooks == NULL, 1)) {
        mutex_fn fn = get(&real_lock);
        return fn != NULL ? fn(mutex) : 0;  // NULL only while dlsym itself resolves (single-threaded)
    }
    const void *caller = __builtin_return_address(0);
    if (hooks->preempt && !is_core_caller(caller)) {
        atomic_fetch_add_explicit(&lock_points, 1, memory_order_relaxed);
        call_hook(hooks, SIMRUN_LOCK_ACQUIRE, mutex, caller);
    }
    return acquire(hooks, mutex, caller);
}

int pthread_mutex_trylock(pthread_mutex_t *mutex) {
    const simrun_lock_hooks *hooks = bound_hooks;
    if (__builtin_expect(hooks != NULL, 0)) {
        const void *caller = __builtin_return_address(0);
        if (hooks->preempt && !is_core_caller(caller)) {
            atomic_fetch_add_explicit(&lock_points, 1, memory_order_relaxed);
            call_hook(hooks, SIMRUN_LOCK_ACQUIRE, mutex, caller);
        }
    }
    mutex_fn fn = get(&real_trylock);
    return fn != NULL ? fn(mutex) : 0;
}

int pthread_mutex_unlock(pthread_mutex_t *mutex) {
    mutex_fn fn = get(&real_unlock);
    int status = fn != NULL ? fn(mutex) : 0;
    const simrun_lock_hooks *hooks = bound_hooks;
    if (__builtin_expect(hooks != NULL, 0) && status == 0 && hooks->waiters != NULL && *hooks->waiters > 0)
        call_hook(hooks, SIMRUN_LOCK_RELEASED, mutex, __builtin_return_address(0));
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
    int status = get(&real_unlock)(mutex);
    if (status != 0) return status;
    if (hooks->waiters != NULL && *hooks->waiters > 0) call_hook(hooks, SIMRUN_LOCK_RELEASED, mutex, caller);
    call_hook(hooks, SIMRUN_LOCK_CONDITION_WAIT, cond, caller);
    return acquire(hooks, mutex, caller);
}

int pthread_cond_signal(pthread_cond_t *cond) {
    const simrun_lock_hooks *hooks = bound_hooks;
    if (__builtin_expect(hooks != NULL, 0)) call_hook(hooks, SIMRUN_LOCK_SIGNAL, cond, __builtin_return_address(0));
    get(&real_unlock);
    return atomic_load(&real_csignal)(cond);
}

int pthread_cond_broadcast(pthread_cond_t *cond) {
    const simrun_lock_hooks *hooks = bound_hooks;
    if (__builtin_expect(hooks != NULL, 0))
        call_hook(hooks, SIMRUN_LOCK_BROADCAST, cond, __builtin_return_address(0));
    get(&real_unlock);
    return atomic_load(&real_cbroadcast)(cond);
}

int simrun_locks_interposed(void) {
    return dlsym(RTLD_DEFAULT, "pthread_mutex_lock") == (void *)&pthread_mutex_lock
        && dlsym(RTLD_DEFAULT, "pthread_mutex_unlock") == (void *)&pthread_mutex_unlock
        && dlsym(RTLD_DEFAULT, "pthread_cond_wait") == (void *)&pthread_cond_wait;
}

const char *simrun_locks_caller_name(const void *caller, char *buffer, int size) {
    Dl_info info, self;
    if (!dladdr(caller, &info) || info.dli_fname == NULL) return "?";
    // The executable itself (user code, SimCore): no name, so that a trace recorded by `simrun`
    // replays in a test binary. A library by its file name (stable across builds of the executable).
    if (dladdr((const void *)&simrun_locks_interposed, &self) && self.dli_fbase == info.dli_fbase) return "";
    const char *base = strrchr(info.dli_fname, '/');
    snprintf(buffer, (size_t)size, "%s", base ? base + 1 : info.dli_fname);
    return buffer;
}

#else

// macOS (two-level namespace: a dyld-interposing library would be needed), and thread-sanitizer
// builds (TSan intercepts the same functions to see synchronisation): locks are not interposed.
int simrun_locks_interposed(void) { return 0; }

const char *simrun_locks_caller_name(const void *caller, char *buffer, int size) {
    (void)caller;
    (void)buffer;
    (void)size;
    return "?";
}

#endif
