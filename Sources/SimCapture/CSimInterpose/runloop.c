// Run-loop timers and blocks under the scheduler (issue #40). On Linux, Foundation's `Timer` and
// `RunLoop` are CoreFoundation's CFRunLoop inside libFoundation, which reaches the functions below
// through its PLT; they are defined here, in the executable, so that a timer or a block added on a
// run's thread goes to the run (SimCapture's `RunLoopCapture`, through weak `simrun_runloop_*`
// callbacks): a timer of the main run loop fires as a `main`-lane job at its virtual fire date, a
// block performed on it runs as a `main`-lane job. Nothing else runs the main run loop inside a run
// (the main thread drives the simulation), so without this such work would never run: a silent pass.
// Anywhere else, and for work SimCapture does not take, the calls go to Foundation untouched.

#if defined(__linux__)

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>

#include "CSimInterpose.h"

typedef void (*timer_callout)(void *timer, void *info);
typedef struct {
    long version;
    void *info;
    const void *(*retain)(const void *);
    void (*release)(const void *);
    void *copy_description;
} timer_context;
typedef void *(*timer_create_fn)(void *, double, double, unsigned long, long, timer_callout, timer_context *);
typedef void (*add_timer_fn)(void *, void *, void *);
typedef void (*one_fn)(void *);
typedef void (*perform_fn)(void *, void *, void *);
typedef double (*now_fn)(void);
typedef double (*timer_double_fn)(void *);
typedef unsigned char (*timer_bool_fn)(void *);
typedef void *(*get_fn)(void);
typedef void (*set_date_fn)(void *, double);

// SimCapture's side (weak: a process without SimCapture still links).
extern int simrun_runloop_timer(void *run, void *timer, int on_main, double delay, double interval) __attribute__((weak));
extern void simrun_runloop_invalidate(void *run, void *timer) __attribute__((weak));
extern int simrun_runloop_block(void *run, void *block, int on_main) __attribute__((weak));

static void *resolve(_Atomic(void *) *slot, const char *name) {
    void *fn = atomic_load_explicit(slot, memory_order_acquire);
    if (fn == NULL) {
        fn = dlsym(RTLD_NEXT, name);
        atomic_store_explicit(slot, fn, memory_order_release);
    }
    return fn;
}

static _Atomic(void *) real_create, real_add, real_invalidate, real_set_date, real_perform, real_now, real_main,
    real_current, real_retain, real_release, real_valid, real_interval, real_next_date;

static inline void *bound_run(void) {
    simrun_clock_reader reader;
    void *context;
    simrun_clocks_binding(&reader, &context);
    return reader != NULL && simrun_runloop_timer != NULL && !simrun_interpose_off() ? context : NULL;
}

// Timers made on a run's thread: their callout and info (CoreFoundation keeps them private).
// Bounded; a timer past the bound is left to Foundation (and reported by SimCapture as not captured).
enum { max_timers = 1024 };
static struct {
    void *timer;
    timer_callout callout;
    void *info;
} timers[max_timers];
static atomic_flag timers_lock = ATOMIC_FLAG_INIT;

static void lock_timers(void) {
    while (atomic_flag_test_and_set_explicit(&timers_lock, memory_order_acquire)) sched_yield();
}
static void unlock_timers(void) { atomic_flag_clear_explicit(&timers_lock, memory_order_release); }

static int find_timer(void *timer, timer_callout *callout, void **info) {
    lock_timers();
    for (int k = 0; k < max_timers; k++) {
        if (timers[k].timer != timer) continue;
        if (callout) *callout = timers[k].callout;
        if (info) *info = timers[k].info;
        unlock_timers();
        return 1;
    }
    unlock_timers();
    return 0;
}

void *CFRunLoopTimerCreate(void *allocator, double fire, double interval, unsigned long flags, long order,
                           timer_callout callout, timer_context *context) {
    timer_create_fn real = (timer_create_fn)resolve(&real_create, "CFRunLoopTimerCreate");
    void *timer = real(allocator, fire, interval, flags, order, callout, context);
    if (timer != NULL && bound_run() != NULL) {
        lock_timers();
        for (int k = 0; k < max_timers; k++) {
            if (timers[k].timer != NULL) continue;
            timers[k].timer = timer;
            timers[k].callout = callout;
            timers[k].info = context ? context->info : NULL;
            break;
        }
        unlock_timers();
    }
    return timer;
}

void CFRunLoopAddTimer(void *loop, void *timer, void *mode) {
    add_timer_fn real = (add_timer_fn)resolve(&real_add, "CFRunLoopAddTimer");
    void *run = bound_run();
    if (run != NULL && find_timer(timer, NULL, NULL)) {
        get_fn main_loop = (get_fn)resolve(&real_main, "CFRunLoopGetMain");
        get_fn current = (get_fn)resolve(&real_current, "CFRunLoopGetCurrent");
        now_fn now = (now_fn)resolve(&real_now, "CFAbsoluteTimeGetCurrent");
        timer_double_fn next = (timer_double_fn)resolve(&real_next_date, "CFRunLoopTimerGetNextFireDate");
        timer_double_fn interval = (timer_double_fn)resolve(&real_interval, "CFRunLoopTimerGetInterval");
        int on_main = loop == main_loop() ? 1 : loop == current() ? 2 : 0;
        // The run keeps the timer until it fires for good or is invalidated (`simrun_runloop_forget`).
        ((one_fn)resolve(&real_retain, "CFRetain"))(timer);
        if (simrun_runloop_timer(run, timer, on_main, next(timer) - now(), interval(timer))) return;
        ((one_fn)resolve(&real_release, "CFRelease"))(timer);
    }
    real(loop, timer, mode);
}

void CFRunLoopTimerInvalidate(void *timer) {
    void *run = bound_run();
    if (run != NULL && find_timer(timer, NULL, NULL)) simrun_runloop_invalidate(run, timer);
    ((one_fn)resolve(&real_invalidate, "CFRunLoopTimerInvalidate"))(timer);
}

void CFRunLoopPerformBlock(void *loop, void *mode, void *block) {
    void *run = bound_run();
    if (run != NULL) {
        get_fn main_loop = (get_fn)resolve(&real_main, "CFRunLoopGetMain");
        get_fn current = (get_fn)resolve(&real_current, "CFRunLoopGetCurrent");
        int on_main = loop == main_loop() ? 1 : loop == current() ? 2 : 0;
        if (simrun_runloop_block(run, block, on_main)) return;
    }
    ((perform_fn)resolve(&real_perform, "CFRunLoopPerformBlock"))(loop, mode, block);
}

int simrun_runloop_fire(void *timer) {
    timer_callout callout = NULL;
    void *info = NULL;
    if (!find_timer(timer, &callout, &info) || callout == NULL) return 0;
    timer_bool_fn valid = (timer_bool_fn)resolve(&real_valid, "CFRunLoopTimerIsValid");
    if (!valid(timer)) return 0;
    callout(timer, info);
    timer_double_fn interval = (timer_double_fn)resolve(&real_interval, "CFRunLoopTimerGetInterval");
    if (valid(timer) && interval(timer) > 0) return 1;
    // A one-shot timer is invalid once it fired, as CoreFoundation leaves it.
    if (valid(timer)) ((one_fn)resolve(&real_invalidate, "CFRunLoopTimerInvalidate"))(timer);
    return 0;
}

double simrun_runloop_interval(void *timer) {
    return ((timer_double_fn)resolve(&real_interval, "CFRunLoopTimerGetInterval"))(timer);
}

void simrun_runloop_forget(void *timer) {
    lock_timers();
    for (int k = 0; k < max_timers; k++) {
        if (timers[k].timer != timer) continue;
        timers[k].timer = NULL;
        break;
    }
    unlock_timers();
    ((one_fn)resolve(&real_release, "CFRelease"))(timer);
}

void simrun_runloop_run_block(void *block) {
    struct {
        void *isa;
        int flags;
        int reserved;
        void (*invoke)(void *);
    } *layout = block;
    layout->invoke(block);
    extern void _Block_release(const void *);
    _Block_release(block);
}

void *simrun_runloop_copy_block(void *block) {
    extern void *_Block_copy(const void *);
    return _Block_copy(block);
}

int simrun_runloop_interposed(void) {
    return !simrun_interpose_off() && dlsym(RTLD_DEFAULT, "CFRunLoopAddTimer") == (void *)&CFRunLoopAddTimer;
}

#else

int simrun_runloop_fire(void *timer) {
    (void)timer;
    return 0;
}
double simrun_runloop_interval(void *timer) {
    (void)timer;
    return 0;
}
void simrun_runloop_forget(void *timer) { (void)timer; }
void simrun_runloop_run_block(void *block) { (void)block; }
void *simrun_runloop_copy_block(void *block) { return block; }
int simrun_runloop_interposed(void) { return 0; }

#endif
