// Whose status lock (issue #41): the concurrency runtime's per-task status lock is a fresh mutex on
// the locking thread's stack each time, so its address says nothing. What it belongs to is the task
// the runtime was asked to act on: `Task.cancel()` (swift_task_cancel) takes the cancelled task's lock
// and runs its cancellation handlers under it; resuming a continuation (swift_continuation_*Resume*)
// takes the resumed task's. These are defined here, in the executable (Linux, ELF: every call from the
// program's code reaches them), and only note the task in a thread-local slot for the duration of
// the call on a carrier; everything is forwarded untouched to the runtime's function.
#if defined(__linux__)
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#endif

#include "CSimInterpose.h"

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__)) && !defined(__SANITIZE_THREAD__)

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

static __thread const void *status_task __attribute__((tls_model("initial-exec")));
static __thread int status_operation __attribute__((tls_model("initial-exec")));

const void *simrun_status_lock_task(int *operation) {
    if (operation) *operation = status_operation;
    return status_task;
}

typedef void (*one_task_fn)(void *task) __attribute__((swiftcall));
typedef void (*task_error_fn)(void *task, void *error) __attribute__((swiftcall));

static void *resolve(_Atomic(void *) *slot, const char *name) {
    void *fn = atomic_load_explicit(slot, memory_order_acquire);
    if (fn == NULL) {
        fn = dlsym(RTLD_NEXT, name);
        atomic_store_explicit(slot, fn, memory_order_release);
    }
    return fn;
}

#define SIMRUN_NOTE(task, operation, call)                                                                 \
    do {                                                                                                  \
        if (simrun_locks_binding() == NULL || simrun_interpose_off()) {                                   \
            call;                                                                                         \
            return;                                                                                       \
        }                                                                                                 \
        const void *saved_task = status_task;                                                             \
        int saved_operation = status_operation;                                                           \
        status_task = (task);                                                                             \
        status_operation = (operation);                                                                   \
        call;                                                                                             \
        status_task = saved_task;                                                                         \
        status_operation = saved_operation;                                                               \
    } while (0)

static _Atomic(void *) real_cancel, real_task_cancel_method, real_resume, real_throwing_resume, real_resume_error;

__attribute__((swiftcall)) void swift_task_cancel(void *task) {
    one_task_fn real = (one_task_fn)resolve(&real_cancel, "swift_task_cancel");
    SIMRUN_NOTE(task, SIMRUN_STATUS_CANCEL, real(task));
}

// `Task.cancel()` itself is compiled into libswift_Concurrency, which calls its own swift_task_cancel
// directly: the program's calls reach the method, `$sScT6cancelyyF`, whose one argument is the task
// (it tail-calls swift_task_cancel with its argument register untouched; Swift 6.3, x86_64 and arm64).
__attribute__((swiftcall)) void simrun_task_cancel_method(void *task) __asm__("$sScT6cancelyyF");
__attribute__((swiftcall)) void simrun_task_cancel_method(void *task) {
    one_task_fn real = (one_task_fn)resolve(&real_task_cancel_method, "$sScT6cancelyyF");
    SIMRUN_NOTE(task, SIMRUN_STATUS_CANCEL, real(task));
}

__attribute__((swiftcall)) void swift_continuation_resume(void *task) {
    one_task_fn real = (one_task_fn)resolve(&real_resume, "swift_continuation_resume");
    SIMRUN_NOTE(task, SIMRUN_STATUS_RESUME, real(task));
}

__attribute__((swiftcall)) void swift_continuation_throwingResume(void *task) {
    one_task_fn real = (one_task_fn)resolve(&real_throwing_resume, "swift_continuation_throwingResume");
    SIMRUN_NOTE(task, SIMRUN_STATUS_RESUME, real(task));
}

__attribute__((swiftcall)) void swift_continuation_throwingResumeWithError(void *task, void *error) {
    task_error_fn real = (task_error_fn)resolve(&real_resume_error, "swift_continuation_throwingResumeWithError");
    SIMRUN_NOTE(task, SIMRUN_STATUS_RESUME, real(task, error));
}

int simrun_mutex_owner(const void *mutex) {
#if defined(__GLIBC__)
    return __atomic_load_n(&((const pthread_mutex_t *)mutex)->__data.__owner, __ATOMIC_RELAXED);
#else
    (void)mutex;
    return 0;
#endif
}

int simrun_thread_id(void) { return (int)syscall(SYS_gettid); }

#else

const void *simrun_status_lock_task(int *operation) {
    if (operation) *operation = 0;
    return 0;
}
int simrun_mutex_owner(const void *mutex) {
    (void)mutex;
    return 0;
}
int simrun_thread_id(void) { return 0; }

#endif
