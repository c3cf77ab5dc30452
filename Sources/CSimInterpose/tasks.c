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
    creating_name = name;
    creating = 1;
    simrun_task_and_context result = real(flags, options, result_type, entry, context);
    creating_name = outer_name;
    creating = outer;
    return result;
}

const char *simrun_task_creating_name(void) { return creating ? creating_name : NULL; }

int simrun_task_creating(void) { return creating; }

int simrun_task_names_interposed(void) { return 1; }

uint64_t simrun_task_creations(void) { return atomic_load_explicit(&task_creations, memory_order_relaxed); }

#else

#include "CSimInterpose.h"

// Elsewhere the runtime's `swift_task_create` is left alone: tasks keep their job-based names.
const char *simrun_task_creating_name(void) { return NULL; }
int simrun_task_creating(void) { return 0; }
int simrun_task_names_interposed(void) { return 0; }
uint64_t simrun_task_creations(void) { return 0; }

#endif
