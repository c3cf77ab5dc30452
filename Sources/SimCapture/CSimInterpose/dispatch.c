// Grand Central Dispatch under the scheduler (issue #31, DESIGN §11). On Linux the libdispatch entry
// points below are defined in the executable, so every PLT reference from libswiftDispatch,
// Foundation and libdispatch itself binds here (the probe in shared/probes/dispatch-capture). One
// rule, the clocks' rule: on a thread whose clocks are bound to a run (`simrun_clocks_bind`), the call
// is handed to the run (SimCapture's `DispatchCapture`, through the `simrun_dispatch_*` callbacks);
// anywhere else it goes to libdispatch untouched (`dlsym(RTLD_NEXT, …)`). Calls libdispatch and the
// concurrency runtime make themselves (the platform executor, `_dispatch_dispose`, dispatch_io) are
// forwarded even on a run's thread: they are not the user's work. Nothing here includes
// <dispatch/dispatch.h>: the prototypes use `void *`, so the Swift Dispatch module and this file
// never clash.

#if defined(__linux__)

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CSimInterpose.h"

typedef void (*work_fn)(void *);
typedef void (*apply_fn)(void *, size_t);
struct block_layout {
    void *isa;
    int flags;
    int reserved;
    void (*invoke)(void *, ...);
};
extern void *_Block_copy(const void *);
extern void _Block_release(const void *);
extern void dispatch_retain(void *);
extern void dispatch_release(void *);
extern void dispatch_group_enter(void *);
extern const char *dispatch_queue_get_label(void *);
extern void *dispatch_get_global_queue(long, unsigned long);

// MARK: The run's side (SimCapture, `@_cdecl`; weak so that a process without SimCapture still links)

extern void simrun_dispatch_submit(void *run, simrun_dispatch_item *item) __attribute__((weak));
extern long simrun_dispatch_wait(void *run, int kind, void *object, uint64_t timeout) __attribute__((weak));
extern void simrun_dispatch_sync(void *run, void *queue, void *block, void *context, void (*function)(void *),
                                 int barrier) __attribute__((weak));
extern void simrun_dispatch_group_left(void *run, void *group) __attribute__((weak));
extern void simrun_dispatch_apply(void *run, size_t iterations, void *block, void *context,
                                  void (*function)(void *, size_t)) __attribute__((weak));
extern void simrun_dispatch_escape(void *run, const char *what) __attribute__((weak));
extern void simrun_dispatch_assert_main(void *run, int expect_on_main) __attribute__((weak));
extern void simrun_dispatch_timer_created(void *run, void *source, void *queue) __attribute__((weak));
extern int simrun_dispatch_timer_call(void *run, void *source, int op, simrun_dispatch_item *handler, uint64_t start,
                                      uint64_t interval) __attribute__((weak));

// MARK: The real functions, resolved once

static void *resolve(_Atomic(void *) *slot, const char *name) {
    void *fn = atomic_load_explicit(slot, memory_order_acquire);
    if (__builtin_expect(fn == NULL, 0)) {
        fn = dlsym(RTLD_NEXT, name);
        if (fn == NULL) {
            fprintf(stderr, "simrun: libdispatch's %s cannot be found\n", name);
            abort();
        }
        atomic_store_explicit(slot, fn, memory_order_release);
    }
    return fn;
}
#define REAL(name, type) ((type)resolve(&real_##name, #name))
#define SLOT(name) static _Atomic(void *) real_##name;
SLOT(dispatch_async)
SLOT(dispatch_async_f)
SLOT(dispatch_after)
SLOT(dispatch_after_f)
SLOT(dispatch_barrier_async)
SLOT(dispatch_barrier_async_f)
SLOT(dispatch_group_async)
SLOT(dispatch_group_async_f)
SLOT(dispatch_group_notify)
SLOT(dispatch_group_notify_f)
SLOT(dispatch_group_leave)
SLOT(dispatch_group_wait)
SLOT(dispatch_semaphore_wait)
SLOT(dispatch_sync)
SLOT(dispatch_sync_f)
SLOT(dispatch_barrier_sync)
SLOT(dispatch_barrier_sync_f)
SLOT(dispatch_async_and_wait)
SLOT(dispatch_apply)
SLOT(dispatch_apply_f)
SLOT(dispatch_source_create)
SLOT(dispatch_queue_create)
SLOT(dispatch_queue_create_with_target)
SLOT(dispatch_queue_attr_make_with_qos_class)
SLOT(dispatch_queue_attr_make_initially_inactive)
SLOT(dispatch_queue_attr_make_with_autorelease_frequency)
SLOT(dispatch_set_target_queue)
SLOT(dispatch_assert_queue)
SLOT(dispatch_source_set_timer)
SLOT(dispatch_source_set_event_handler)
SLOT(dispatch_source_set_event_handler_f)
SLOT(dispatch_source_set_cancel_handler)
SLOT(dispatch_source_set_cancel_handler_f)
SLOT(dispatch_resume)
SLOT(dispatch_suspend)
SLOT(dispatch_activate)
SLOT(dispatch_source_cancel)
SLOT(dispatch_assert_queue_not)

// MARK: Binding and callers

static _Atomic uint64_t captured_calls;

// The run of this thread: the context of its clock binding (a `Simulation`), or NULL.
static inline void *bound_run(void) {
    simrun_clock_reader reader;
    void *context;
    simrun_clocks_binding(&reader, &context);
    return reader != NULL && simrun_dispatch_submit != NULL && !simrun_interpose_off() ? context : NULL;
}

static void *image_base(const void *address) {
    Dl_info info;
    return dladdr(address, &info) ? info.dli_fbase : NULL;
}

static _Atomic(void *) dispatch_base, concurrency_base;

// Work libdispatch or the concurrency runtime hands to libdispatch itself keeps going there.
static int from_runtime(const void *caller) {
    void *dispatch = atomic_load_explicit(&dispatch_base, memory_order_acquire);
    if (dispatch == NULL) {
        dispatch = image_base(resolve(&real_dispatch_async, "dispatch_async"));
        atomic_store_explicit(&dispatch_base, dispatch, memory_order_release);
        void *enqueue = dlsym(RTLD_DEFAULT, "swift_task_enqueueGlobal");
        atomic_store_explicit(&concurrency_base, enqueue ? image_base(enqueue) : NULL, memory_order_release);
    }
    void *base = image_base(caller);
    return base != NULL && (base == dispatch || base == atomic_load_explicit(&concurrency_base, memory_order_acquire));
}

#define CALLER __builtin_return_address(0)

static void *user_run(const void *caller) {
    void *run = bound_run();
    if (run == NULL || from_runtime(caller)) return NULL;
    atomic_fetch_add_explicit(&captured_calls, 1, memory_order_relaxed);
    return run;
}

// MARK: Queues: which are concurrent, which target which (libdispatch has no public query)

struct queue_fact {
    const void *object;
    const void *target;
    int concurrent;
    int inactive;
    struct queue_fact *next;
};
#define FACT_BUCKETS 251
static struct queue_fact *facts[FACT_BUCKETS];
static pthread_mutex_t facts_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t bucket(const void *object) { return ((uintptr_t)object >> 4) % FACT_BUCKETS; }

static struct queue_fact *find_fact(const void *object) {
    for (struct queue_fact *fact = facts[bucket(object)]; fact != NULL; fact = fact->next)
        if (fact->object == object) return fact;
    return NULL;
}

// Records what is known of `object` (a queue or an attribute); a new object at a reused address
// replaces the old facts.
static void note_fact(const void *object, const void *target, int concurrent, int inactive) {
    if (object == NULL) return;
    pthread_mutex_lock(&facts_lock);
    struct queue_fact *fact = find_fact(object);
    if (fact == NULL) {
        fact = calloc(1, sizeof *fact);
        if (fact != NULL) {
            fact->object = object;
            fact->next = facts[bucket(object)];
            facts[bucket(object)] = fact;
        }
    }
    if (fact != NULL) {
        fact->target = target;
        fact->concurrent = concurrent;
        fact->inactive = inactive;
    }
    pthread_mutex_unlock(&facts_lock);
}

static struct queue_fact fact_of(const void *object) {
    struct queue_fact copy = {0};
    if (object == NULL) return copy;
    pthread_mutex_lock(&facts_lock);
    struct queue_fact *fact = find_fact(object);
    if (fact != NULL) copy = *fact;
    pthread_mutex_unlock(&facts_lock);
    return copy;
}

static void *concurrent_attribute(void) {
    static void *attribute;
    if (attribute == NULL) attribute = dlsym(RTLD_DEFAULT, "_dispatch_queue_attr_concurrent");
    return attribute;
}

static int attribute_is_concurrent(const void *attribute) {
    return attribute != NULL && (attribute == concurrent_attribute() || fact_of(attribute).concurrent);
}

static void note_attribute(void *made, const void *from, int inactive) {
    if (made == NULL) return;
    struct queue_fact base = fact_of(from);
    note_fact(made, NULL, attribute_is_concurrent(from), inactive || base.inactive);
}

void *dispatch_queue_attr_make_with_qos_class(void *attribute, int qos, int relative) {
    typedef void *(*fn)(void *, int, int);
    void *made = REAL(dispatch_queue_attr_make_with_qos_class, fn)(attribute, qos, relative);
    note_attribute(made, attribute, 0);
    return made;
}

void *dispatch_queue_attr_make_initially_inactive(void *attribute) {
    typedef void *(*fn)(void *);
    void *made = REAL(dispatch_queue_attr_make_initially_inactive, fn)(attribute);
    note_attribute(made, attribute, 1);
    return made;
}

void *dispatch_queue_attr_make_with_autorelease_frequency(void *attribute, unsigned long frequency) {
    typedef void *(*fn)(void *, unsigned long);
    void *made = REAL(dispatch_queue_attr_make_with_autorelease_frequency, fn)(attribute, frequency);
    note_attribute(made, attribute, 0);
    return made;
}

void *dispatch_queue_create_with_target(const char *label, void *attribute, void *target) {
    typedef void *(*fn)(const char *, void *, void *);
    void *queue = REAL(dispatch_queue_create_with_target, fn)(label, attribute, target);
    note_fact(queue, target, attribute_is_concurrent(attribute), fact_of(attribute).inactive);
    return queue;
}

void *dispatch_queue_create(const char *label, void *attribute) {
    typedef void *(*fn)(const char *, void *);
    void *queue = REAL(dispatch_queue_create, fn)(label, attribute);
    note_fact(queue, NULL, attribute_is_concurrent(attribute), fact_of(attribute).inactive);
    return queue;
}

void dispatch_set_target_queue(void *object, void *target) {
    typedef void (*fn)(void *, void *);
    REAL(dispatch_set_target_queue, fn)(object, target);
    struct queue_fact fact = fact_of(object);
    note_fact(object, target, fact.concurrent, fact.inactive);
}

int simrun_dispatch_queue_facts(void *queue, void **target) {
    struct queue_fact fact = fact_of(queue);
    *target = (void *)fact.target;
    return (fact.concurrent ? 1 : 0) | (fact.inactive ? 2 : 0);
}

void *simrun_dispatch_main_queue(void) {
    static void *main_queue;
    if (main_queue == NULL) main_queue = dlsym(RTLD_DEFAULT, "_dispatch_main_q");
    return main_queue;
}

const char *simrun_dispatch_queue_label(void *queue) {
    const char *label = dispatch_queue_get_label(queue);
    return label != NULL ? label : "";
}

// MARK: Items

// A block made by `dispatch_block_create` (a `DispatchWorkItem`, `async(group:flags: .barrier)`)
// carries its flags in private data right after the block's header (libdispatch's
// `_dispatch_block_get_data`, marked by a magic number); libdispatch honours its barrier flag
// whichever function submits it, so the run must too.
struct block_descriptor {
    unsigned long reserved;
    unsigned long size;
};
struct block_with_descriptor {
    struct block_layout header;
    const struct block_descriptor *descriptor;
};
enum { dispatch_block_private_magic = 0xD159B10C, dispatch_block_barrier_flag = 0x1 };

static int is_barrier_block(const void *block) {
    if (block == NULL) return 0;
    const struct block_with_descriptor *layout = block;
    if (layout->descriptor == NULL) return 0;
    // Newer libdispatch keeps the private data right after the header; older builds after one
    // captured block pointer. Only read what the block's own size says is there.
    for (size_t offset = sizeof *layout; offset <= sizeof *layout + sizeof(void *); offset += sizeof(void *)) {
        if (layout->descriptor->size < offset + 2 * sizeof(unsigned long)) break;
        const unsigned long *data = (const unsigned long *)((const char *)block + offset);
        if (data[0] == dispatch_block_private_magic) return (data[1] & dispatch_block_barrier_flag) != 0;
    }
    return 0;
}

static simrun_dispatch_item *make_item(int kind, void *queue, const void *block, void *context, work_fn function,
                                       void *group, uint64_t when) {
    simrun_dispatch_item *item = calloc(1, sizeof *item);
    if (item == NULL) abort();
    dispatch_retain(queue);
    item->kind = kind;
    item->queue = queue;
    item->block = block != NULL ? _Block_copy(block) : NULL;
    item->context = context;
    item->function = function;
    item->when = when;
    item->barrier = kind == SIMRUN_DISPATCH_BARRIER || is_barrier_block(block);
    if (group != NULL) {
        dispatch_retain(group);
        item->group = group;
    }
    return item;
}

static void simrun_dispatch_item_body(void *raw) {
    simrun_dispatch_item *item = raw;
    if (item->block != NULL)
        ((struct block_layout *)item->block)->invoke(item->block);
    else
        item->function(item->context);
}

void simrun_dispatch_item_run(simrun_dispatch_item *item, int on_queue) {
    // Inside libdispatch's own `dispatch_sync_f` on the item's queue (idle for libdispatch: its work
    // is held by the run), so `getSpecific` and `dispatchPrecondition(.onQueue(q))` see the queue.
    if (on_queue)
        REAL(dispatch_sync_f, void (*)(void *, void *, work_fn))(item->queue, item, simrun_dispatch_item_body);
    else
        simrun_dispatch_item_body(item);
    if (item->group != NULL && item->kind == SIMRUN_DISPATCH_GROUP_ASYNC) {
        REAL(dispatch_group_leave, void (*)(void *))(item->group);
        item->kind = SIMRUN_DISPATCH_ASYNC;  // left once
    }
}

simrun_dispatch_item *simrun_dispatch_item_make(int kind, void *queue, void *block, void *context,
                                                void (*function)(void *)) {
    return make_item(kind, queue, block, context, function, NULL, 0);
}

simrun_dispatch_item *simrun_dispatch_item_clone(const simrun_dispatch_item *item) {
    return make_item(item->kind, item->queue, item->block, item->context, item->function, NULL, 0);
}

void simrun_dispatch_item_free(simrun_dispatch_item *item) {
    // A group item that never ran still holds its group: a group freed while entered traps libdispatch.
    if (item->group != NULL && item->kind == SIMRUN_DISPATCH_GROUP_ASYNC)
        REAL(dispatch_group_leave, void (*)(void *))(item->group);
    if (item->block != NULL) _Block_release(item->block);
    if (item->group != NULL) dispatch_release(item->group);
    dispatch_release(item->queue);
    free(item);
}

long simrun_dispatch_try_wait(int kind, void *object) {
    typedef long (*fn)(void *, uint64_t);
    return kind == SIMRUN_DISPATCH_WAIT_SEMAPHORE ? REAL(dispatch_semaphore_wait, fn)(object, 0)
                                                  : REAL(dispatch_group_wait, fn)(object, 0);
}

void simrun_dispatch_sync_on_queue(void *queue, void *block, void *context, void (*function)(void *), int barrier) {
    typedef void (*block_fn)(void *, void *);
    typedef void (*f_fn)(void *, void *, work_fn);
    if (block != NULL)
        (barrier ? REAL(dispatch_barrier_sync, block_fn) : REAL(dispatch_sync, block_fn))(queue, block);
    else
        (barrier ? REAL(dispatch_barrier_sync_f, f_fn) : REAL(dispatch_sync_f, f_fn))(queue, context, function);
}

void simrun_dispatch_invoke(void *block, void *context, void (*function)(void *)) {
    if (block != NULL)
        ((struct block_layout *)block)->invoke(block);
    else
        function(context);
}

void simrun_dispatch_apply_iteration(void *block, void *context, void (*function)(void *, size_t), size_t index) {
    if (block != NULL)
        ((struct block_layout *)block)->invoke(block, index);
    else
        function(context, index);
}

int64_t simrun_dispatch_virtual_deadline(uint64_t when) {
    if (when == 0) return -1;                       // DISPATCH_TIME_NOW
    if (when == ~0ull) return INT64_MAX;            // DISPATCH_TIME_FOREVER
    if ((int64_t)when < 0) {                        // a wall-clock deadline: minus nanoseconds since 1970
        int64_t since_epoch = -(int64_t)when;
        return since_epoch - SIMRUN_VIRTUAL_WALL_EPOCH_SECONDS * 1000000000LL;
    }
    uint64_t uptime = when & ~(1ull << 62);         // the monotonic flag, when set
    return (int64_t)uptime - SIMRUN_VIRTUAL_MONOTONIC_EPOCH_NS;
}

// MARK: The interposers

void dispatch_async(void *queue, void *block) {
    void *run = user_run(CALLER);
    if (run != NULL) { simrun_dispatch_submit(run, make_item(SIMRUN_DISPATCH_ASYNC, queue, block, 0, 0, 0, 0)); return; }
    REAL(dispatch_async, void (*)(void *, void *))(queue, block);
}

void dispatch_async_f(void *queue, void *context, work_fn function) {
    void *run = user_run(CALLER);
    if (run != NULL)
        { simrun_dispatch_submit(run, make_item(SIMRUN_DISPATCH_ASYNC, queue, 0, context, function, 0, 0)); return; }
    REAL(dispatch_async_f, void (*)(void *, void *, work_fn))(queue, context, function);
}

void dispatch_barrier_async(void *queue, void *block) {
    void *run = user_run(CALLER);
    if (run != NULL) { simrun_dispatch_submit(run, make_item(SIMRUN_DISPATCH_BARRIER, queue, block, 0, 0, 0, 0)); return; }
    REAL(dispatch_barrier_async, void (*)(void *, void *))(queue, block);
}

void dispatch_barrier_async_f(void *queue, void *context, work_fn function) {
    void *run = user_run(CALLER);
    if (run != NULL)
        { simrun_dispatch_submit(run, make_item(SIMRUN_DISPATCH_BARRIER, queue, 0, context, function, 0, 0)); return; }
    REAL(dispatch_barrier_async_f, void (*)(void *, void *, work_fn))(queue, context, function);
}

void dispatch_after(uint64_t when, void *queue, void *block) {
    void *run = user_run(CALLER);
    if (run != NULL) {
        if (when != ~0ull) simrun_dispatch_submit(run, make_item(SIMRUN_DISPATCH_AFTER, queue, block, 0, 0, 0, when));
        return;
    }
    REAL(dispatch_after, void (*)(uint64_t, void *, void *))(when, queue, block);
}

void dispatch_after_f(uint64_t when, void *queue, void *context, work_fn function) {
    void *run = user_run(CALLER);
    if (run != NULL) {
        if (when != ~0ull)
            simrun_dispatch_submit(run, make_item(SIMRUN_DISPATCH_AFTER, queue, 0, context, function, 0, when));
        return;
    }
    REAL(dispatch_after_f, void (*)(uint64_t, void *, void *, work_fn))(when, queue, context, function);
}

void dispatch_group_async(void *group, void *queue, void *block) {
    void *run = user_run(CALLER);
    if (run != NULL) {
        dispatch_group_enter(group);
        { simrun_dispatch_submit(run, make_item(SIMRUN_DISPATCH_GROUP_ASYNC, queue, block, 0, 0, group, 0)); return; }
    }
    REAL(dispatch_group_async, void (*)(void *, void *, void *))(group, queue, block);
}

void dispatch_group_async_f(void *group, void *queue, void *context, work_fn function) {
    void *run = user_run(CALLER);
    if (run != NULL) {
        dispatch_group_enter(group);
        { simrun_dispatch_submit(
            run, make_item(SIMRUN_DISPATCH_GROUP_ASYNC, queue, 0, context, function, group, 0)); return; }
    }
    REAL(dispatch_group_async_f, void (*)(void *, void *, void *, work_fn))(group, queue, context, function);
}

// `DispatchGroup.notify` and `DispatchWorkItem.notify` (libdispatch's `dispatch_block_notify` calls
// this through its own PLT with the work item's private group) both land here, so a call from
// libdispatch on a run's thread is the user's too.
void dispatch_group_notify(void *group, void *queue, void *block) {
    void *run = bound_run();
    if (run != NULL) {
        atomic_fetch_add_explicit(&captured_calls, 1, memory_order_relaxed);
        { simrun_dispatch_submit(run, make_item(SIMRUN_DISPATCH_NOTIFY, queue, block, 0, 0, group, 0)); return; }
    }
    REAL(dispatch_group_notify, void (*)(void *, void *, void *))(group, queue, block);
}

void dispatch_group_notify_f(void *group, void *queue, void *context, work_fn function) {
    void *run = bound_run();
    if (run != NULL) {
        atomic_fetch_add_explicit(&captured_calls, 1, memory_order_relaxed);
        { simrun_dispatch_submit(run, make_item(SIMRUN_DISPATCH_NOTIFY, queue, 0, context, function, group, 0)); return; }
    }
    REAL(dispatch_group_notify_f, void (*)(void *, void *, void *, work_fn))(group, queue, context, function);
}

void dispatch_group_leave(void *group) {
    REAL(dispatch_group_leave, void (*)(void *))(group);
    void *run = bound_run();
    if (run != NULL) simrun_dispatch_group_left(run, group);
}

// Waits on a run's thread never block the thread: the run decides (SimCapture's `DispatchCapture`).
// `DispatchWorkItem.wait` is `dispatch_block_wait` → `dispatch_group_wait` through libdispatch's PLT.
long dispatch_semaphore_wait(void *semaphore, uint64_t timeout) {
    void *run = bound_run();
    if (run != NULL) return simrun_dispatch_wait(run, SIMRUN_DISPATCH_WAIT_SEMAPHORE, semaphore, timeout);
    return REAL(dispatch_semaphore_wait, long (*)(void *, uint64_t))(semaphore, timeout);
}

long dispatch_group_wait(void *group, uint64_t timeout) {
    void *run = bound_run();
    if (run != NULL) return simrun_dispatch_wait(run, SIMRUN_DISPATCH_WAIT_GROUP, group, timeout);
    return REAL(dispatch_group_wait, long (*)(void *, uint64_t))(group, timeout);
}

void dispatch_sync(void *queue, void *block) {
    void *run = user_run(CALLER);
    if (run != NULL) { simrun_dispatch_sync(run, queue, block, 0, 0, 0); return; }
    REAL(dispatch_sync, void (*)(void *, void *))(queue, block);
}

void dispatch_sync_f(void *queue, void *context, work_fn function) {
    void *run = user_run(CALLER);
    if (run != NULL) { simrun_dispatch_sync(run, queue, 0, context, function, 0); return; }
    REAL(dispatch_sync_f, void (*)(void *, void *, work_fn))(queue, context, function);
}

void dispatch_barrier_sync(void *queue, void *block) {
    void *run = user_run(CALLER);
    if (run != NULL) { simrun_dispatch_sync(run, queue, block, 0, 0, 1); return; }
    REAL(dispatch_barrier_sync, void (*)(void *, void *))(queue, block);
}

void dispatch_barrier_sync_f(void *queue, void *context, work_fn function) {
    void *run = user_run(CALLER);
    if (run != NULL) { simrun_dispatch_sync(run, queue, 0, context, function, 1); return; }
    REAL(dispatch_barrier_sync_f, void (*)(void *, void *, work_fn))(queue, context, function);
}

void dispatch_async_and_wait(void *queue, void *block) {
    void *run = user_run(CALLER);
    if (run != NULL) { simrun_dispatch_sync(run, queue, block, 0, 0, 0); return; }
    REAL(dispatch_async_and_wait, void (*)(void *, void *))(queue, block);
}

// `DispatchQueue.concurrentPerform`: the iterations run on the run's thread, in an order the run picks.
void dispatch_apply(size_t iterations, void *queue, void *block) {
    void *run = user_run(CALLER);
    if (run != NULL) { simrun_dispatch_apply(run, iterations, (void *)block, 0, 0); return; }
    REAL(dispatch_apply, void (*)(size_t, void *, void *))(iterations, queue, block);
}

void dispatch_apply_f(size_t iterations, void *queue, void *context, apply_fn function) {
    void *run = user_run(CALLER);
    if (run != NULL) { simrun_dispatch_apply(run, iterations, 0, context, function); return; }
    REAL(dispatch_apply_f, void (*)(size_t, void *, void *, apply_fn))(iterations, queue, context, function);
}

// `dispatchPrecondition(.onQueue(.main))` / `.notOnQueue(.main)`: on a run's thread, main is the run's
// `main` lane (the thread may not be the process's main thread); a failed precondition is a finding of
// the run. Other queues are libdispatch's to check (their blocks run inside `dispatch_sync_f` on them).
void dispatch_assert_queue(void *queue) {
    void *run = bound_run();
    if (run != NULL && queue == simrun_dispatch_main_queue()) {
        simrun_dispatch_assert_main(run, 1);
        return;
    }
    REAL(dispatch_assert_queue, void (*)(void *))(queue);
}

void dispatch_assert_queue_not(void *queue) {
    void *run = bound_run();
    if (run != NULL && queue == simrun_dispatch_main_queue()) {
        simrun_dispatch_assert_main(run, 0);
        return;
    }
    REAL(dispatch_assert_queue_not, void (*)(void *))(queue);
}

// Timer sources are simulated: the real source is made (so that its object, activation and
// cancellation stay libdispatch's and balanced) but never armed; the run keeps its schedule and
// handlers and fires it on virtual time (SimCapture's `DispatchCapture`). Other sources (signals, file
// descriptors, user data) are escapes the run reports, never passes: their handlers would run on
// libdispatch's threads at real time.
void *dispatch_source_create(const void *type, uintptr_t handle, uintptr_t mask, void *queue) {
    void *run = user_run(CALLER);
    void *source =
        REAL(dispatch_source_create, void *(*)(const void *, uintptr_t, uintptr_t, void *))(type, handle, mask, queue);
    if (run != NULL) {
        static const void *timer_type;
        if (timer_type == NULL) timer_type = dlsym(RTLD_DEFAULT, "_dispatch_source_type_timer");
        if (type == timer_type && source != NULL) {
            if (queue == NULL) queue = dispatch_get_global_queue(0, 0);  // libdispatch's default target
            simrun_dispatch_timer_created(run, source, queue);
        } else {
            simrun_dispatch_escape(run, "a DispatchSource other than a timer (its handlers run on libdispatch's "
                                        "threads, at real time)");
        }
    }
    return source;
}

// A call about one of the run's timer sources, or 0 when `object` is not one (then it is libdispatch's).
static int timer_call(void *object, int op, simrun_dispatch_item *handler, uint64_t start, uint64_t interval) {
    void *run = bound_run();
    if (run == NULL) return 0;
    int handled = simrun_dispatch_timer_call(run, object, op, handler, start, interval);
    if (!handled && handler != NULL) simrun_dispatch_item_free(handler);
    return handled;
}

void dispatch_source_set_timer(void *source, uint64_t start, uint64_t interval, uint64_t leeway) {
    if (timer_call(source, SIMRUN_DISPATCH_TIMER_SET, NULL, start, interval)) return;
    REAL(dispatch_source_set_timer, void (*)(void *, uint64_t, uint64_t, uint64_t))(source, start, interval, leeway);
}

static simrun_dispatch_item *handler_item(void *source, void *block, void *context, work_fn function) {
    // The handler's queue is filled in by SimCapture (the source's); the source stands in until then.
    if (block == NULL && function == NULL) return NULL;
    return make_item(SIMRUN_DISPATCH_ASYNC, source, block, context, function, NULL, 0);
}

void dispatch_source_set_event_handler(void *source, void *block) {
    // Kept by the run and also given to libdispatch (the source is never armed there, so it never
    // fires it; libdispatch's bookkeeping stays as in an app).
    if (bound_run() != NULL)
        timer_call(source, SIMRUN_DISPATCH_TIMER_HANDLER, handler_item(source, block, NULL, NULL), 0, 0);
    REAL(dispatch_source_set_event_handler, void (*)(void *, void *))(source, block);
}

void dispatch_source_set_event_handler_f(void *source, work_fn function) {
    if (bound_run() != NULL)
        timer_call(source, SIMRUN_DISPATCH_TIMER_HANDLER, handler_item(source, NULL, NULL, function), 0, 0);
    REAL(dispatch_source_set_event_handler_f, void (*)(void *, work_fn))(source, function);
}

// A cancel handler given to libdispatch would run on its threads: the run keeps it and runs it.
void dispatch_source_set_cancel_handler(void *source, void *block) {
    if (bound_run() != NULL &&
        timer_call(source, SIMRUN_DISPATCH_TIMER_CANCEL_HANDLER, handler_item(source, block, NULL, NULL), 0, 0))
        return;
    REAL(dispatch_source_set_cancel_handler, void (*)(void *, void *))(source, block);
}

void dispatch_source_set_cancel_handler_f(void *source, work_fn function) {
    if (bound_run() != NULL &&
        timer_call(source, SIMRUN_DISPATCH_TIMER_CANCEL_HANDLER, handler_item(source, NULL, NULL, function), 0, 0))
        return;
    REAL(dispatch_source_set_cancel_handler_f, void (*)(void *, work_fn))(source, function);
}

void dispatch_resume(void *object) {
    REAL(dispatch_resume, void (*)(void *))(object);
    timer_call(object, SIMRUN_DISPATCH_TIMER_RESUME, NULL, 0, 0);
}

void dispatch_activate(void *object) {
    REAL(dispatch_activate, void (*)(void *))(object);
    timer_call(object, SIMRUN_DISPATCH_TIMER_ACTIVATE, NULL, 0, 0);
}

void dispatch_suspend(void *object) {
    REAL(dispatch_suspend, void (*)(void *))(object);
    timer_call(object, SIMRUN_DISPATCH_TIMER_SUSPEND, NULL, 0, 0);
}

void dispatch_source_cancel(void *source) {
    REAL(dispatch_source_cancel, void (*)(void *))(source);
    timer_call(source, SIMRUN_DISPATCH_TIMER_CANCEL, NULL, 0, 0);
}

int simrun_dispatch_interposed(void) {
    // As for the clocks: simrun's definitions are what every library binds to only when the default
    // search finds them first.
    return simrun_clocks_interposed() && dlsym(RTLD_DEFAULT, "dispatch_async") == (void *)&dispatch_async
        && dlsym(RTLD_DEFAULT, "dispatch_semaphore_wait") == (void *)&dispatch_semaphore_wait
        && dlsym(RTLD_DEFAULT, "dispatch_group_notify") == (void *)&dispatch_group_notify;
}

uint64_t simrun_dispatch_captured_calls(void) { return atomic_load_explicit(&captured_calls, memory_order_relaxed); }

#else

// Darwin and other platforms: libdispatch lives in the shared cache behind a two-level namespace, so a
// definition here would bind nothing; GCD stays real inside a run (Linux only for now: the capture
// matrix says so, and the dyld-interposing library of DESIGN §11 is the way there).

#include <stdlib.h>

#include "CSimInterpose.h"

int simrun_dispatch_interposed(void) { return 0; }
uint64_t simrun_dispatch_captured_calls(void) { return 0; }
int simrun_dispatch_queue_facts(void *queue, void **target) {
    *target = NULL;
    return 0;
}
void *simrun_dispatch_main_queue(void) { return NULL; }
const char *simrun_dispatch_queue_label(void *queue) { return ""; }
void simrun_dispatch_item_run(simrun_dispatch_item *item, int on_queue) { abort(); }
void simrun_dispatch_item_free(simrun_dispatch_item *item) { abort(); }
long simrun_dispatch_try_wait(int kind, void *object) { abort(); }
void simrun_dispatch_sync_on_queue(void *queue, void *block, void *context, void (*function)(void *), int barrier) {
    abort();
}
void simrun_dispatch_apply_iteration(void *block, void *context, void (*function)(void *, size_t), size_t index) {
    abort();
}
void simrun_dispatch_invoke(void *block, void *context, void (*function)(void *)) { abort(); }
int64_t simrun_dispatch_virtual_deadline(uint64_t when) { return -1; }
simrun_dispatch_item *simrun_dispatch_item_make(int kind, void *queue, void *block, void *context,
                                                void (*function)(void *)) {
    abort();
}
simrun_dispatch_item *simrun_dispatch_item_clone(const simrun_dispatch_item *item) { abort(); }

#endif
