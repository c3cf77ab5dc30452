// Threads under the scheduler (issue #40). `Thread { … }.start()` and `pthread_create` reach
// `pthread_create` through the PLT (Foundation's `Thread.start`, the program's own calls); it is
// defined here, in the executable. Called on a thread that holds a run's turn, by the program or by
// Foundation's `Thread`, it hands the thread to the run (SimCapture's CarrierSet, `simrun_thread_create`):
// the new thread is a carrier of the run with a lane of its own, started when the scheduler picks it;
// off carriers (the one-thread path) the run is told, and fails naming the thread, since its work
// would run outside the simulation. Threads simrun starts itself (carriers, watchdogs) and every
// library's own go to the C library untouched, as does everything off a run's thread.
#if defined(__linux__)
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#endif

#include "CSimInterpose.h"

#if defined(__linux__) && !defined(__SANITIZE_THREAD__)

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

typedef void *(*start_fn)(void *);
typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, start_fn, void *);
typedef int (*join_fn)(pthread_t, void **);
typedef int (*nanosleep_fn)(const struct timespec *, struct timespec *);
typedef int (*clock_nanosleep_fn)(clockid_t, int, const struct timespec *, struct timespec *);

extern int simrun_thread_create(void *run, const void *const *frames, int frame_count, start_fn start, void *argument,
                                pthread_t *thread, int detached) __attribute__((weak));
extern int simrun_thread_join(void *run, pthread_t thread) __attribute__((weak));
extern int simrun_thread_sleep(void *run, int64_t nanoseconds) __attribute__((weak));

static _Atomic(void *) real_create, real_join, real_nanosleep, real_clock_nanosleep;

static void *resolve(_Atomic(void *) *slot, const char *name) {
    void *fn = atomic_load_explicit(slot, memory_order_acquire);
    if (fn == NULL) {
        fn = dlsym(RTLD_NEXT, name);
        atomic_store_explicit(slot, fn, memory_order_release);
    }
    return fn;
}

int simrun_real_pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*start)(void *),
                               void *argument) {
    return ((create_fn)resolve(&real_create, "pthread_create"))(thread, attributes, start, argument);
}

// Whose thread it is: the program's own call, or Foundation's `Thread` starting one for it.
static int is_users_thread(const void *caller) {
    int site = simrun_lock_site(caller);
    if (site == SIMRUN_SITE_PROGRAM) return 1;
    if (site != SIMRUN_SITE_LIBRARY) return 0;
    // Foundation's `Thread.start` creates its thread in CoreFoundation's `_CFThreadCreate`.
    const char *name = simrun_code_symbol((const char *)caller - 1, NULL);
    return name != NULL && (strcmp(name, "_CFThreadCreate") == 0 || strstr(name, "10Foundation6ThreadC") != NULL);
}

#define SIMRUN_THREAD_FRAME_MASK (~((uintptr_t)1 << 60))

__attribute__((noinline)) static int chain(const void **frames, void *const *frame, int capacity) {
    int count = 0;
    while (count < capacity) {
        frames[count++] = frame[1];
        void *const *next = (void *const *)((uintptr_t)frame[0] & SIMRUN_THREAD_FRAME_MASK);
        if ((uintptr_t)next <= (uintptr_t)frame || (uintptr_t)next - (uintptr_t)frame > (1u << 20) ||
            ((uintptr_t)next & (sizeof(void *) - 1)))
            break;
        frame = next;
    }
    return count;
}

// The run the calling thread belongs to: the run whose turn it holds inside a job (carriers), or the
// run whose clocks it reads (the one-thread path runs every job on the run's own thread).
static void *calling_run(void) {
    if (simrun_interpose_off()) return NULL;
    void *run = simrun_turn_binding();
    if (run != NULL) return simrun_locks_binding() != NULL ? run : NULL;
    simrun_clock_reader reader;
    void *context;
    simrun_clocks_binding(&reader, &context);
    return reader != NULL ? context : NULL;
}

int pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*start)(void *), void *argument) {
    void *run = calling_run();
    if (__builtin_expect(run == NULL || simrun_thread_create == NULL, 1))
        return simrun_real_pthread_create(thread, attributes, start, argument);
    const void *caller = __builtin_return_address(0);
    if (!is_users_thread(caller)) return simrun_real_pthread_create(thread, attributes, start, argument);
    int detached = 0;
    if (attributes != NULL) {
        int state = PTHREAD_CREATE_JOINABLE;
        pthread_attr_getdetachstate(attributes, &state);
        detached = state == PTHREAD_CREATE_DETACHED;
    }
    const void *frames[12];
    int count = chain(frames, (void *const *)__builtin_frame_address(0), 12);
    int status = simrun_thread_create(run, frames, count, start, argument, thread, detached);
    return status >= 0 ? status : simrun_real_pthread_create(thread, attributes, start, argument);
}

int pthread_join(pthread_t thread, void **result) {
    void *run = simrun_turn_binding();
    if (run != NULL && simrun_thread_join != NULL && simrun_locks_binding() != NULL && !simrun_interpose_off())
        simrun_thread_join(run, thread);
    return ((join_fn)resolve(&real_join, "pthread_join"))(thread, result);
}

// A sleep on a carrier of a run is a wait on the run's virtual clock (another carrier runs meanwhile);
// anywhere else it is the C library's.
int nanosleep(const struct timespec *duration, struct timespec *remaining) {
    void *run = simrun_turn_binding();
    if (run != NULL && simrun_thread_sleep != NULL && simrun_locks_binding() != NULL && duration != NULL &&
        !simrun_interpose_off()) {
        int64_t nanoseconds = (int64_t)duration->tv_sec * 1000000000 + duration->tv_nsec;
        if (simrun_thread_sleep(run, nanoseconds) == 0) {
            if (remaining) remaining->tv_sec = remaining->tv_nsec = 0;
            return 0;
        }
    }
    return ((nanosleep_fn)resolve(&real_nanosleep, "nanosleep"))(duration, remaining);
}

int clock_nanosleep(clockid_t clock, int flags, const struct timespec *request, struct timespec *remaining) {
    void *run = simrun_turn_binding();
    if (run != NULL && simrun_thread_sleep != NULL && simrun_locks_binding() != NULL && request != NULL &&
        !(flags & TIMER_ABSTIME) && !simrun_interpose_off()) {
        int64_t nanoseconds = (int64_t)request->tv_sec * 1000000000 + request->tv_nsec;
        if (simrun_thread_sleep(run, nanoseconds) == 0) {
            if (remaining) remaining->tv_sec = remaining->tv_nsec = 0;
            return 0;
        }
    }
    return ((clock_nanosleep_fn)resolve(&real_clock_nanosleep, "clock_nanosleep"))(clock, flags, request, remaining);
}

int simrun_threads_interposed(void) {
    return !simrun_interpose_off() && dlsym(RTLD_DEFAULT, "pthread_create") == (void *)&pthread_create;
}

#else

#include <pthread.h>

int simrun_real_pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*start)(void *),
                               void *argument) {
    return pthread_create(thread, attributes, start, argument);
}
int simrun_threads_interposed(void) { return 0; }

#endif
