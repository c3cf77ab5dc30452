// What a task of a run is doing when the run hangs (issue #30): whether it has finished, whether it
// runs, what it waits on, and the async frames it will resume in. The runtime gives an executor no
// "task ended" signal and no frame chain, so they are read from the task object itself, whose layout
// is the runtime's ABI (swift/ABI/Task.h, stdlib/public/Concurrency/TaskPrivate.h, TaskStatus.h on
// Swift 6.3, 64-bit):
//   Job:        flags at 32 (kind: low byte, 0 = task; bit 28: an `async let` child), ResumeTask at 56;
//   AsyncTask:  ResumeContext at 64, private storage at 80, whose ActiveTaskStatus sits at 96
//               (flags word: 0x800 running, 0x1000 enqueued, 0x2000 complete, 0x4000 has a
//               dependency) with its innermost status record at 104;
//   a status record: flags, parent; a dependency record (the innermost one while the dependency
//               flag is set): what it waits on at 16, the kind of wait at 32 (1 a task,
//               2 a continuation, 3 a task group, 4 enqueued on an executor);
//   AsyncContext: Parent at 0, ResumeParent at 8.
// `HangReportTests` pins each of these down, so a runtime that moves them fails `swift test`.
//
// The private part (from the status word on) is no ABI: another runtime may move it, and reading it
// there would put garbage into hang reports and into "is this task somewhere else" (a verdict). So it
// is read only on the runtime it was written for, checked on first use against the running
// libswiftCore's `_SwiftStdlibVersion.current` (stdlib/public/core/Availability.swift: 0xMMmmpp),
// and every read checks what no task of that runtime can hold (a misaligned status record or async
// context, a dependency of no known kind, an object that is no longer a task). A mismatch or an
// impossible read turns reading off for the process, with one line on stderr (`simrun: …`) and the
// same line wherever a hang report would have named tasks: never a silent wrong answer.
// A task is only read while something holds it: simrun retains every heap task of a run until it is
// seen complete (an `async let` child lives in its parent's frame: it is checked after the job it
// ends in, before its parent can run again).

#if defined(__linux__)
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#endif

#include "CSimInterpose.h"

#include <stdint.h>
#include <stdio.h>

// The runtime these offsets were read from: Swift 6.3 (`_SwiftStdlibVersion.v6_3_0`).
enum { simrun_task_layout_version = 0x060300 };

static void version_text(uint32_t version, char *text, size_t capacity) {
    snprintf(text, capacity, "%u.%u.%u", version >> 16, (version >> 8) & 0xff, version & 0xff);
}

int simrun_task_layout_refusal(uint32_t written_for, uint32_t running, char *line, int capacity) {
    if (running == written_for) return 0;
    char wanted[16], found[16];
    version_text(written_for, wanted, sizeof wanted);
    version_text(running, found, sizeof found);
    if (running == 0) {
        snprintf(line, (size_t)capacity,
            "task objects are not read: the Swift runtime does not say its version (task_state.c reads the layout of %s)",
            wanted);
    } else {
        snprintf(line, (size_t)capacity,
            "task objects are not read: the Swift runtime is %s, task_state.c reads the layout of %s", found, wanted);
    }
    return 1;
}

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))

#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdatomic.h>

extern void *swift_retain(void *object);
// swiftcc with no arguments and a pointer result: the same registers as a C call on x86-64 and arm64.
extern void *swift_task_getCurrent(void);
extern void swift_release(void *object);

enum {
    job_flags_offset = 32,
    resume_task_offset = 56,
    resume_context_offset = 64,
    status_flags_offset = 96,
    status_record_offset = 104,
    job_kind_task = 0,
    job_async_let_bit = 1u << 28,
    status_running = 0x800,
    status_enqueued = 0x1000,
    status_complete = 0x2000,
    status_dependency = 0x4000,
    status_record_locked = 0x200,
    dependency_on_offset = 16,
    dependency_kind_offset = 32,
};

static uint32_t word32(const void *base, int offset) { return *(const volatile uint32_t *)((const char *)base + offset); }
static const void *pointer(const void *base, int offset) {
    return *(const void *const volatile *)((const char *)base + offset);
}

// `static var _SwiftStdlibVersion.current { get }`: swiftcc, no arguments, a one-word struct result,
// the same registers as a C call (x86-64, arm64). Looked up, not linked: a runtime without it is a
// refusal, not a build failure.
typedef uint32_t (*stdlib_version_fn)(void);

uint32_t simrun_task_runtime_version(void) {
    stdlib_version_fn current = (stdlib_version_fn)dlsym(RTLD_DEFAULT, "$sSo19_SwiftStdlibVersionasE7currentABvgZ");
    return current ? current() : 0;
}

// 0 not checked yet, 1 read, 3 being refused (`refusal` being written), 2 refused (`refusal` says why).
static _Atomic int layout_state;
static char refusal[256];
static pthread_once_t check_once = PTHREAD_ONCE_INIT;

static void refuse(const char *why) {
    int expected = 1;
    // The first refusal wins; a check that finds the version wrong runs before any read.
    if (!atomic_compare_exchange_strong(&layout_state, &expected, 3)) {
        expected = 0;
        if (!atomic_compare_exchange_strong(&layout_state, &expected, 3)) return;
    }
    snprintf(refusal, sizeof refusal, "%s", why);
    fprintf(stderr, "simrun: %s\n", refusal);
    atomic_store_explicit(&layout_state, 2, memory_order_release);
}

static void check_layout(void) {
    char line[256];
    if (simrun_task_layout_refusal(simrun_task_layout_version, simrun_task_runtime_version(), line, sizeof line)) {
        refuse(line);
    } else {
        int expected = 0;
        atomic_compare_exchange_strong(&layout_state, &expected, 1);
    }
}

int simrun_task_state_readable(void) {
    int state = atomic_load_explicit(&layout_state, memory_order_acquire);
    if (__builtin_expect(state == 0, 0)) {
        pthread_once(&check_once, check_layout);
        state = atomic_load_explicit(&layout_state, memory_order_acquire);
    }
    return state == 1;
}

const char *simrun_task_state_refusal(void) {
    return atomic_load_explicit(&layout_state, memory_order_acquire) == 2 ? refusal : NULL;
}

int simrun_backtrace(const void **frames, int capacity) { return backtrace((void **)frames, capacity); }

int simrun_job_is_task(const void *job) { return (word32(job, job_flags_offset) & 0xff) == job_kind_task; }

int simrun_task_is_async_let(const void *task) { return (word32(task, job_flags_offset) & job_async_let_bit) != 0; }

void simrun_task_retain(const void *task) { (void)swift_retain((void *)task); }

const void *simrun_current_task(void) { return swift_task_getCurrent(); }

void simrun_task_release(const void *task) { swift_release((void *)task); }

int simrun_task_is_complete(const void *task) { return (word32(task, status_flags_offset) & status_complete) != 0; }

int simrun_first_complete_task(const void *const *tasks, int count) {
    for (int index = 0; index < count; index++) {
        if (word32(tasks[index], status_flags_offset) & status_complete) return index;
    }
    return -1;
}

static void clear(struct simrun_task_state *state) {
    state->complete = 0;
    state->running = 0;
    state->enqueued = 0;
    state->wait = simrun_task_wait_unknown;
    state->waiting_on = NULL;
    state->frame_count = 0;
}

static int aligned(const void *address) { return ((uintptr_t)address & (sizeof(void *) - 1)) == 0; }

// A value no task of the runtime can hold: impossible only if the status word (flags and innermost
// record, one double-word the runtime swaps whole) did not change while it was read. A task that
// runs outside the simulation may move on mid-read: that read is not known (cleared), not wrong.
static int impossible(const void *task, uint32_t flags, const void *record, struct simrun_task_state *state,
    const char *what, char *problem, int capacity) {
    int moved = word32(task, status_flags_offset) != flags || pointer(task, status_record_offset) != record;
    clear(state);
    if (moved) return 0;
    char version[16];
    version_text(simrun_task_layout_version, version, sizeof version);
    snprintf(problem, (size_t)capacity, "task objects are not read: a task reads as no Swift %s task does (%s)",
        version, what);
    return 1;
}

int simrun_task_read_checked(
    const void *task, int read_frames, struct simrun_task_state *state, char *problem, int capacity) {
    clear(state);
    // Only tasks are tracked (`simrun_job_is_task` when first seen) and a tracked task is kept alive:
    // its job kind cannot have changed.
    uint32_t flags = word32(task, status_flags_offset);
    const void *record = pointer(task, status_record_offset);
    if ((word32(task, job_flags_offset) & 0xff) != job_kind_task) {
        return impossible(task, flags, record, state, "its job kind is not a task's", problem, capacity);
    }
    state->complete = (flags & status_complete) != 0;
    state->running = (flags & status_running) != 0;
    state->enqueued = (flags & status_enqueued) != 0;
    if (state->complete) return 0;
    if (record && !aligned(record)) {
        return impossible(task, flags, record, state, "its status record is misaligned", problem, capacity);
    }
    if ((flags & status_dependency) && !(flags & status_record_locked)) {
        // While the dependency flag is set and the records unlocked, the innermost record is the
        // dependency record, of one of four kinds.
        uint32_t kind = record ? word32(record, dependency_kind_offset) : 0;
        if (kind < simrun_task_wait_task || kind > simrun_task_wait_enqueued) {
            return impossible(task, flags, record, state, "it depends on something of no known kind", problem, capacity);
        }
        state->wait = (enum simrun_task_wait)kind;
        state->waiting_on = pointer(record, dependency_on_offset);
    }
    // Only a task that neither runs nor waits in a queue keeps its frames where they are read.
    if (!read_frames || state->running || state->enqueued) return 0;
    const void *resume = pointer(task, resume_task_offset);
    if (resume) state->frames[state->frame_count++] = resume;
    const void *context = pointer(task, resume_context_offset);
    while (context && state->frame_count < simrun_task_max_frames) {
        if (!aligned(context)) {
            return impossible(task, flags, record, state, "an async context of it is misaligned", problem, capacity);
        }
        const void *parent_resume = pointer(context, 8);
        if (parent_resume) state->frames[state->frame_count++] = parent_resume;
        context = pointer(context, 0);
    }
    return 0;
}

void simrun_task_read(const void *task, int read_frames, struct simrun_task_state *state) {
    char problem[256];
    if (!simrun_task_state_readable()) {
        clear(state);
        return;
    }
    if (simrun_task_read_checked(task, read_frames, state, problem, sizeof problem)) refuse(problem);
}

#else

// Elsewhere the task layout is not read: a hang names its tasks without what they wait on.
int simrun_task_state_readable(void) { return 0; }
const char *simrun_task_state_refusal(void) { return NULL; }
uint32_t simrun_task_runtime_version(void) { return 0; }
int simrun_task_read_checked(
    const void *task, int read_frames, struct simrun_task_state *state, char *problem, int capacity) {
    (void)problem;
    (void)capacity;
    simrun_task_read(task, read_frames, state);
    return 0;
}
int simrun_backtrace(const void **frames, int capacity) { (void)frames; (void)capacity; return 0; }
int simrun_job_is_task(const void *job) { (void)job; return 0; }
int simrun_task_is_async_let(const void *task) { (void)task; return 0; }
void simrun_task_retain(const void *task) { (void)task; }
void simrun_task_release(const void *task) { (void)task; }
int simrun_task_is_complete(const void *task) { (void)task; return 0; }
const void *simrun_current_task(void) { return NULL; }

int simrun_first_complete_task(const void *const *tasks, int count) {
    (void)tasks;
    (void)count;
    return -1;
}
void simrun_task_read(const void *task, int read_frames, struct simrun_task_state *state) {
    (void)task;
    (void)read_frames;
    state->complete = 0;
    state->running = 0;
    state->enqueued = 0;
    state->wait = simrun_task_wait_unknown;
    state->waiting_on = NULL;
    state->frame_count = 0;
}

#endif
