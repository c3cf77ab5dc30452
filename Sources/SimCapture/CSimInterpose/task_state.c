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
// A task is only read while something holds it: simrun retains every heap task of a run until it is
// seen complete (an `async let` child lives in its parent's frame: it is checked after the job it
// ends in, before its parent can run again).

#include "CSimInterpose.h"

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))

#include <execinfo.h>
#include <stdint.h>

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

int simrun_task_state_readable(void) { return 1; }

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

void simrun_task_read(const void *task, int read_frames, struct simrun_task_state *state) {
    uint32_t flags = word32(task, status_flags_offset);
    state->complete = (flags & status_complete) != 0;
    state->running = (flags & status_running) != 0;
    state->enqueued = (flags & status_enqueued) != 0;
    state->wait = simrun_task_wait_unknown;
    state->waiting_on = NULL;
    state->frame_count = 0;
    if (state->complete) return;
    const void *record = pointer(task, status_record_offset);
    if ((flags & status_dependency) && !(flags & status_record_locked) && record) {
        uint32_t kind = word32(record, dependency_kind_offset);
        if (kind >= simrun_task_wait_task && kind <= simrun_task_wait_enqueued) {
            state->wait = (enum simrun_task_wait)kind;
            state->waiting_on = pointer(record, dependency_on_offset);
        }
    }
    // Only a task that neither runs nor waits in a queue keeps its frames where they are read.
    if (!read_frames || state->running || state->enqueued) return;
    const void *resume = pointer(task, resume_task_offset);
    if (resume) state->frames[state->frame_count++] = resume;
    const void *context = pointer(task, resume_context_offset);
    while (context && state->frame_count < simrun_task_max_frames) {
        const void *parent_resume = pointer(context, 8);
        if (parent_resume) state->frames[state->frame_count++] = parent_resume;
        context = pointer(context, 0);
    }
}

#else

// Elsewhere the task layout is not read: a hang names its tasks without what they wait on.
int simrun_task_state_readable(void) { return 0; }
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
