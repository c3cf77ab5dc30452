// Virtual clocks (issue #23, DESIGN §10–§11). On Linux the definitions below are exported from the
// executable (the C library defines the same names), so the dynamic linker binds every library's
// calls to them: libswift_Concurrency's `swift_get_time` (ContinuousClock, SuspendingClock, the
// deadlines of Task.sleep), FoundationEssentials' `Date()`, libdispatch's `dispatch_time` /
// `dispatch_walltime` (DispatchTime.now(), DispatchWallTime.now()). On a thread bound to a run they
// return the run's virtual time; anywhere else they call the C library's function, resolved once.

#if defined(__linux__)

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "CSimInterpose.h"

// The binding of this thread: initial-exec TLS, so the forward path costs one load and a branch.
static __thread simrun_clock_reader bound_reader __attribute__((tls_model("initial-exec")));
static __thread void *bound_context __attribute__((tls_model("initial-exec")));

static _Atomic uint64_t virtual_reads;

void simrun_clocks_bind(simrun_clock_reader reader, void *context) {
    bound_context = context;
    bound_reader = reader;
}

void simrun_clocks_binding(simrun_clock_reader *reader, void **context) {
    *reader = bound_reader;
    *context = bound_context;
}

uint64_t simrun_clocks_virtual_reads(void) { return atomic_load_explicit(&virtual_reads, memory_order_relaxed); }

// MARK: The C library's functions, resolved once (racing first calls resolve the same address).

#if defined(__GLIBC__) && !__GLIBC_PREREQ(2, 31)
typedef struct timezone *timezone_argument;
#else
typedef void *timezone_argument;
#endif
typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);
typedef int (*gettimeofday_fn)(struct timeval *, timezone_argument);

typedef time_t (*time_fn)(time_t *);
typedef int (*timespec_get_fn)(struct timespec *, int);

static _Atomic(clock_gettime_fn) real_clock_gettime;
static _Atomic(gettimeofday_fn) real_gettimeofday;
static _Atomic(time_fn) real_time;
static _Atomic(timespec_get_fn) real_timespec_get;

#define RESOLVE(slot, type, name)                                                   \
    type fn = atomic_load_explicit(&slot, memory_order_acquire);                    \
    if (__builtin_expect(fn == NULL, 0)) {                                          \
        fn = (type)dlsym(RTLD_NEXT, name);                                          \
        if (fn != NULL) atomic_store_explicit(&slot, fn, memory_order_release);     \
    }

// When the C library's symbol cannot be found (never seen; a static link could do it) the kernel
// still answers clock_gettime.
static int syscall_clock_gettime(clockid_t id, struct timespec *ts) {
    return (int)syscall(SYS_clock_gettime, id, ts);
}

static int forward_clock_gettime(clockid_t id, struct timespec *ts) {
    RESOLVE(real_clock_gettime, clock_gettime_fn, "clock_gettime")
    return fn != NULL ? fn(id, ts) : syscall_clock_gettime(id, ts);
}

// MARK: Virtual readings

enum clock_kind { kind_real, kind_monotonic, kind_wall, kind_tai };

static enum clock_kind kind_of(clockid_t id) {
    switch (id) {
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_MONOTONIC_COARSE:
    case CLOCK_BOOTTIME:
#ifdef CLOCK_BOOTTIME_ALARM
    case CLOCK_BOOTTIME_ALARM:
#endif
        return kind_monotonic;
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
#ifdef CLOCK_REALTIME_ALARM
    case CLOCK_REALTIME_ALARM:
#endif
        return kind_wall;
#ifdef CLOCK_TAI
    case CLOCK_TAI:
        return kind_tai;
#endif
    default:
        // CPU-time clocks (process, thread, or a clock id made from a pid) measure work, not time:
        // they stay real.
        return kind_real;
    }
}

static inline int64_t virtual_now(simrun_clock_reader reader) {
    atomic_fetch_add_explicit(&virtual_reads, 1, memory_order_relaxed);
    int64_t now = reader(bound_context);
    return now < 0 ? 0 : now;
}

static inline void split(int64_t seconds, int64_t nanoseconds, struct timespec *ts) {
    ts->tv_sec = (time_t)(seconds + nanoseconds / 1000000000);
    ts->tv_nsec = (long)(nanoseconds % 1000000000);
}

// The binding the interposers act on: none when the layer is switched off (`SIMRUN_INTERPOSE=off`;
// the binding itself stays, SimCapture reads it to know a run's thread).
static inline simrun_clock_reader interposing_reader(void) {
    simrun_clock_reader reader = bound_reader;
    return __builtin_expect(reader != NULL, 0) && simrun_interpose_off() ? NULL : reader;
}

// MARK: The interposers

int clock_gettime(clockid_t id, struct timespec *ts) {
    simrun_clock_reader reader = interposing_reader();
    if (__builtin_expect(reader != NULL, 0)) {
        enum clock_kind kind = kind_of(id);
        if (kind != kind_real) {
            int64_t now = virtual_now(reader);
            switch (kind) {
            case kind_monotonic:
                split(0, SIMRUN_VIRTUAL_MONOTONIC_EPOCH_NS + now, ts);
                break;
            case kind_wall:
                split(SIMRUN_VIRTUAL_WALL_EPOCH_SECONDS, now, ts);
                break;
            default:  // TAI is ahead of UTC by 37 leap seconds since 2017.
                split(SIMRUN_VIRTUAL_WALL_EPOCH_SECONDS + 37, now, ts);
                break;
            }
            return 0;
        }
    }
    return forward_clock_gettime(id, ts);
}

int gettimeofday(struct timeval *restrict tv, timezone_argument restrict tz) {
    simrun_clock_reader reader = interposing_reader();
    if (__builtin_expect(reader != NULL, 0)) {
        if (tz != NULL) {
            // The obsolete time zone argument: UTC, as on any system without one configured.
            struct {
                int minuteswest, dsttime;
            } *zone = tz;
            zone->minuteswest = 0;
            zone->dsttime = 0;
        }
        int64_t now = virtual_now(reader);
        tv->tv_sec = (time_t)(SIMRUN_VIRTUAL_WALL_EPOCH_SECONDS + now / 1000000000);
        tv->tv_usec = (suseconds_t)((now % 1000000000) / 1000);
        return 0;
    }
    RESOLVE(real_gettimeofday, gettimeofday_fn, "gettimeofday")
    if (fn != NULL) return fn(tv, tz);
    struct timespec ts;
    int status = forward_clock_gettime(CLOCK_REALTIME, &ts);
    if (status == 0) {
        tv->tv_sec = ts.tv_sec;
        tv->tv_usec = (suseconds_t)(ts.tv_nsec / 1000);
    }
    return status;
}

time_t time(time_t *out) {
    simrun_clock_reader reader = interposing_reader();
    time_t seconds;
    if (__builtin_expect(reader != NULL, 0)) {
        seconds = (time_t)(SIMRUN_VIRTUAL_WALL_EPOCH_SECONDS + virtual_now(reader) / 1000000000);
    } else {
        RESOLVE(real_time, time_fn, "time")
        if (fn != NULL) return fn(out);
        struct timespec ts;
        if (forward_clock_gettime(CLOCK_REALTIME, &ts) != 0) return (time_t)-1;
        seconds = ts.tv_sec;
    }
    if (out != NULL) *out = seconds;
    return seconds;
}

int timespec_get(struct timespec *ts, int base) {
    simrun_clock_reader reader = interposing_reader();
    if (__builtin_expect(reader != NULL, 0) && base == TIME_UTC) {
        split(SIMRUN_VIRTUAL_WALL_EPOCH_SECONDS, virtual_now(reader), ts);
        return base;
    }
    RESOLVE(real_timespec_get, timespec_get_fn, "timespec_get")
    if (fn != NULL) return fn(ts, base);
    if (base != TIME_UTC || forward_clock_gettime(CLOCK_REALTIME, ts) != 0) return 0;
    return base;
}

int simrun_clocks_interposed(void) {
    // What the dynamic linker binds the libraries' references to is what the default search finds
    // first: simrun's definitions only when they are exported from the executable (or a library
    // loaded before the C library).
    return !simrun_interpose_off() && dlsym(RTLD_DEFAULT, "clock_gettime") == (void *)&clock_gettime
        && dlsym(RTLD_DEFAULT, "gettimeofday") == (void *)&gettimeofday
        && dlsym(RTLD_DEFAULT, "time") == (void *)&time
        && dlsym(RTLD_DEFAULT, "timespec_get") == (void *)&timespec_get;
}

#else

// Darwin and other platforms: two-level namespaces keep system libraries bound to libSystem's clocks
// (a dyld-interposing library would be needed; DESIGN §11). The clocks stay real and say so.

#include "CSimInterpose.h"

static _Thread_local simrun_clock_reader bound_reader;
static _Thread_local void *bound_context;

void simrun_clocks_bind(simrun_clock_reader reader, void *context) {
    bound_context = context;
    bound_reader = reader;
}

void simrun_clocks_binding(simrun_clock_reader *reader, void **context) {
    *reader = bound_reader;
    *context = bound_context;
}

int simrun_clocks_interposed(void) { return 0; }

uint64_t simrun_clocks_virtual_reads(void) { return 0; }

#endif
