// Task names at creation (issue #24, DESIGN §9): `swift_task_create` is defined here, in the
// executable, so every `Task {}`, `Task.detached`, task-group child and `async let` of the process
// passes through it (Linux, ELF: the executable's definition wins over libswift_Concurrency's). It
// reads the name option record of `Task(name:)` (SE-0469) and keeps it in a thread-local slot while
// the runtime creates the task: the task's first job is enqueued inside that call, so the capture that
// places the job reads the name there. Everything is forwarded untouched to the runtime's function.

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "CSimInterpose.h"

// The runtime's ABI (swift/ABI/TaskOptions.h, MetadataValues.h): an option record starts with its
// flags word (the low byte is its kind) and its parent; kind 7 is the task's initial name.
struct simrun_task_option_record {
    size_t flags;
    struct simrun_task_option_record *parent;
};
struct simrun_task_name_record {
    struct simrun_task_option_record base;
    const char *name;
};
enum { simrun_task_option_kind_name = 7 };

// What `swift_task_create` returns: the task and its initial context (two words, in registers).
typedef struct {
    void *task;
    void *context;
} simrun_task_and_context;

typedef simrun_task_and_context (*simrun_task_create_fn)(
    size_t flags, void *options, const void *result_type, void *entry, void *context) __attribute__((swiftcall));

static _Atomic(simrun_task_create_fn) real_task_create;
static _Atomic uint64_t task_creations;

static __thread const char *creating_name __attribute__((tls_model("initial-exec")));
static __thread int creating __attribute__((tls_model("initial-exec")));

// The creation's return addresses, innermost first: the caller of `swift_task_create` (the user's
// function in an optimized build, else the client-emitted `Task.init`/`addTask` around the call) and
// the callers above it. Read by walking the frame-pointer chain, which Swift code keeps on every
// platform simrun runs on: a few loads per creation, against microseconds for an unwinder. The walk
// stops at a saved frame pointer that does not lie a little above the current one on the same stack.
enum { simrun_creation_frames = 4 };
static __thread const void *creating_frames[simrun_creation_frames] __attribute__((tls_model("initial-exec")));
static __thread int creating_frame_count __attribute__((tls_model("initial-exec")));
static __thread const void *creating_entry __attribute__((tls_model("initial-exec")));
static __thread const void *creating_context __attribute__((tls_model("initial-exec")));

// Async frames mark their saved frame pointer with bit 60 (the Swift async extended frame).
#define SIMRUN_FRAME_POINTER_MASK (~((uintptr_t)1 << 60))

__attribute__((noinline)) static int creation_frames(const void **frames, void *const *frame) {
    int count = 0;
    while (count < simrun_creation_frames) {
        frames[count++] = frame[1];
        if (count == simrun_creation_frames) break;
        void *const *next = (void *const *)((uintptr_t)frame[0] & SIMRUN_FRAME_POINTER_MASK);
        if ((uintptr_t)next <= (uintptr_t)frame || (uintptr_t)next - (uintptr_t)frame > (1u << 20) ||
            ((uintptr_t)next & (sizeof(void *) - 1)))
            break;
        frame = next;
    }
    return count;
}

__attribute__((swiftcall)) simrun_task_and_context swift_task_create(
    size_t flags, void *options, const void *result_type, void *entry, void *context) {
    simrun_task_create_fn real = atomic_load_explicit(&real_task_create, memory_order_acquire);
    if (!real) {
        real = (simrun_task_create_fn)dlsym(RTLD_NEXT, "swift_task_create");
        if (!real) {
            fputs("simrun: swift_task_create not found in the Swift runtime\n", stderr);
            abort();
        }
        atomic_store_explicit(&real_task_create, real, memory_order_release);
    }
    if (__builtin_expect(simrun_interpose_off(), 0)) return real(flags, options, result_type, entry, context);
    atomic_fetch_add_explicit(&task_creations, 1, memory_order_relaxed);
    const char *name = NULL;
    for (struct simrun_task_option_record *record = options; record; record = record->parent) {
        if ((record->flags & 0xff) == simrun_task_option_kind_name) {
            name = ((struct simrun_task_name_record *)record)->name;
            break;
        }
    }
    const char *outer_name = creating_name;
    int outer = creating;
    const void *outer_frames[simrun_creation_frames];
    int outer_frame_count = creating_frame_count;
    const void *outer_entry = creating_entry, *outer_context = creating_context;
    for (int i = 0; i < outer_frame_count; i++) outer_frames[i] = creating_frames[i];
    // This function's own frame record (taking its address keeps one): [saved frame, return address].
    creating_frame_count = creation_frames(creating_frames, (void *const *)__builtin_frame_address(0));
    creating_name = name;
    creating = 1;
    creating_entry = entry;
    creating_context = context;
    simrun_task_and_context result = real(flags, options, result_type, entry, context);
    creating_name = outer_name;
    creating = outer;
    creating_entry = outer_entry;
    creating_context = outer_context;
    creating_frame_count = outer_frame_count;
    for (int i = 0; i < outer_frame_count; i++) creating_frames[i] = outer_frames[i];
    return result;
}

void simrun_task_creating_entry(const void **entry, const void **context) {
    *entry = creating ? creating_entry : NULL;
    *context = creating ? creating_context : NULL;
}

int simrun_task_creating_frames(const void *_Nullable *_Nonnull frames, int capacity) {
    if (!creating) return 0;
    int count = creating_frame_count < capacity ? creating_frame_count : capacity;
    for (int i = 0; i < count; i++) frames[i] = creating_frames[i];
    return count;
}

const char *simrun_task_creating_name(void) { return creating ? creating_name : NULL; }

int simrun_task_creating(void) { return creating; }

int simrun_task_names_interposed(void) { return !simrun_interpose_off(); }

uint64_t simrun_task_creations(void) { return atomic_load_explicit(&task_creations, memory_order_relaxed); }

#else

#include "CSimInterpose.h"

// Elsewhere the runtime's `swift_task_create` is left alone: tasks keep their job-based names.
const char *simrun_task_creating_name(void) { return NULL; }
int simrun_task_creating(void) { return 0; }
int simrun_task_names_interposed(void) { return 0; }
uint64_t simrun_task_creations(void) { return 0; }
void simrun_task_creating_entry(const void **entry, const void **context) {
    *entry = NULL;
    *context = NULL;
}
int simrun_task_creating_frames(const void *_Nullable *_Nonnull frames, int capacity) {
    (void)frames;
    (void)capacity;
    return 0;
}

#endif
