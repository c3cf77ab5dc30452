// The one interposition layer (DESIGN §11): C entry points defined in every executable and test
// executable that links SimCapture. A definition in the executable wins over the shared library's for
// every PLT reference in the process (Linux, ELF); each interposer simulates when called on a thread
// that runs a simulation and forwards untouched (`dlsym(RTLD_NEXT, …)`) anywhere else.

#ifndef CSIMINTERPOSE_H
#define CSIMINTERPOSE_H

#include <stddef.h>
#include <stdint.h>
#include <pthread.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: Switching the interposition layer off (interpose_mode.c, issue #40)

/// 1 when `SIMRUN_INTERPOSE=off` was in the environment at start-up: every interposer forwards to the
/// real function and every `simrun_*_interposed` is 0 (the shape of a platform without the layer).
int simrun_interpose_off(void);

// MARK: Load-time executors (constructor.c)
//
// A constructor runs when the executable is loaded, before `main` (the test runner's, in a test
// process) and before any task exists: the one moment simrun's executors can be installed without
// owning `main`. It calls SimCapture's `simrun_executors_at_load` (Swift, `@_cdecl`), which decides.

/// 1 once the load-time constructor has run in this process, else 0.
int simrun_load_constructor_ran(void);

/// The number of threads in this process, or -1 when it cannot be told on this platform.
int simrun_process_thread_count(void);

/// 1 when called on the process's main (initial) thread, 0 when not, -1 when it cannot be told.
int simrun_on_main_thread(void);

// MARK: - Build id (build_id.c, issue #30)

/// Copies the running executable's build id (ELF NT_GNU_BUILD_ID on Linux, LC_UUID on Darwin) into
/// `out` (at most `capacity` bytes); returns its length, 0 when it cannot be read on this platform.
int simrun_executable_build_id(unsigned char *_Nonnull out, int capacity);

// MARK: - Virtual clocks (clocks.c, issue #23)
//
// `clock_gettime`, `gettimeofday`, `time` and `timespec_get` read the run's virtual clock on a thread
// bound with `simrun_clocks_bind`; everywhere else they are the C library's. Linux only: on other
// platforms the functions below exist and report that the clocks stay real.

/// Reads a run's virtual clock: nanoseconds since the start of the run.
typedef int64_t (*simrun_clock_reader)(void *_Nullable context);

/// The monotonic clocks (CLOCK_MONOTONIC, _RAW, _COARSE, CLOCK_BOOTTIME) read this many nanoseconds
/// at virtual time 0 of a run: never 0, which libdispatch reads as DISPATCH_TIME_NOW.
#define SIMRUN_VIRTUAL_MONOTONIC_EPOCH_NS 1000000000LL
/// The wall clock (CLOCK_REALTIME, `gettimeofday`, `time`, Foundation's `Date()`) reads
/// 2025-01-01T00:00:00Z (Unix seconds) at virtual time 0 of a run.
#define SIMRUN_VIRTUAL_WALL_EPOCH_SECONDS 1735689600LL

/// Binds this thread's clocks to `reader(context)`, or back to the real clocks when `reader` is NULL.
/// Returns nothing; read the previous binding first with `simrun_clocks_binding` to restore it.
void simrun_clocks_bind(simrun_clock_reader _Nullable reader, void *_Nullable context);

/// This thread's binding (NULL reader: the real clocks).
void simrun_clocks_binding(simrun_clock_reader _Nullable *_Nonnull reader, void *_Nullable *_Nonnull context);

/// 1 when the process's `clock_gettime`, `gettimeofday`, `time` and `timespec_get` are simrun's (what
/// every library in the process calls), 0 when the platform or the link left them to the C library.
int simrun_clocks_interposed(void);

/// How many clock reads returned virtual time in this process (evidence for tests and `doctor`).
uint64_t simrun_clocks_virtual_reads(void);

// MARK: - (end of virtual clocks)

// MARK: - Task names (tasks.c, issue #24)
//
// `swift_task_create` is interposed on Linux (x86_64, arm64): while the runtime creates a task, the
// name given with `Task(name:)` is readable on the creating thread, so the capture that places the
// task's first job (enqueued inside the creation) can name the task after it. Elsewhere nothing is
// interposed and the functions below report so.

/// The `Task(name:)` name of the task being created on this thread, or NULL (no name, or no task
/// being created, or not interposed on this platform).
const char *_Nullable simrun_task_creating_name(void);

/// 1 while a task is being created on this thread (inside `swift_task_create`), else 0.
int simrun_task_creating(void);

/// 1 when this process's `swift_task_create` is simrun's (task names are read), else 0.
int simrun_task_names_interposed(void);

/// How many tasks were created through simrun's `swift_task_create` in this process.
uint64_t simrun_task_creations(void);
// MARK: - Task state (task_state.c, issue #30)
//
// A hang names the tasks still suspended: whether a task of the run has finished, runs, or waits, on
// what, and the async frames it will resume in, read from the runtime's task object (Linux, 64-bit;
// elsewhere `simrun_task_state_readable` is 0 and nothing is read).

/// What a suspended task waits on (the runtime's dependency kinds).
enum simrun_task_wait {
    simrun_task_wait_unknown = 0,
    simrun_task_wait_task = 1,
    simrun_task_wait_continuation = 2,
    simrun_task_wait_group = 3,
    simrun_task_wait_enqueued = 4,
};

enum { simrun_task_max_frames = 24 };

/// A task as read at one moment.
struct simrun_task_state {
    int complete;
    int running;
    int enqueued;
    enum simrun_task_wait wait;
    /// The awaited task (`wait` a task), else the runtime's object it waits on, or NULL.
    const void *_Nullable waiting_on;
    int frame_count;
    /// Where the task resumes, then where each caller resumes, innermost first.
    const void *_Nullable frames[simrun_task_max_frames];
};

/// 1 when task objects are read here (Linux, 64-bit, on the Swift runtime task_state.c was written
/// for, and no read has found a value no task of it can hold), else 0. The first call checks the
/// runtime's version; a refusal is said once on stderr (`simrun: …`) and by
/// `simrun_task_state_refusal`.
int simrun_task_state_readable(void);

/// Why task objects are no longer read (one line), or NULL: not refused (or not Linux, where they
/// are never read).
const char *_Nullable simrun_task_state_refusal(void);

/// The running Swift runtime's version (`_SwiftStdlibVersion.current`: 0xMMmmpp), or 0 when it does
/// not say (or not Linux).
uint32_t simrun_task_runtime_version(void);

/// The version check, with the versions given (a test hook: the check `simrun_task_state_readable`
/// makes with the layout's version and the running one). 1 and a line in `line` when
/// `running` is not `written_for`, else 0.
int simrun_task_layout_refusal(uint32_t written_for, uint32_t running, char *_Nonnull line, int capacity);

/// Reads `task` as `simrun_task_read` does, without asking or changing whether tasks are read: 1 and
/// a line in `problem` when it holds what no task of the runtime can (`state` cleared), else 0.
int simrun_task_read_checked(const void *_Nonnull task, int read_frames, struct simrun_task_state *_Nonnull state,
    char *_Nonnull problem, int capacity);

/// The return addresses on the calling thread's stack, innermost first (at most `capacity`); 0 where
/// stacks are not read (not Linux). Where a blocking wait was made, for a deadlock to name it.
int simrun_backtrace(const void *_Nullable *_Nonnull frames, int capacity);

/// 1 when `job` is a task (its job kind), else 0.
int simrun_job_is_task(const void *_Nonnull job);

/// 1 when `task` is an `async let` child (allocated in its parent's frame, never retained), else 0.
int simrun_task_is_async_let(const void *_Nonnull task);

/// Keeps `task` alive (the runtime's retain) until `simrun_task_release`.
void simrun_task_retain(const void *_Nonnull task);

/// Lets go of a task kept by `simrun_task_retain`.
void simrun_task_release(const void *_Nonnull task);

/// The runtime's current task on this thread (unretained), or NULL: where task state is read
/// (Linux); NULL elsewhere, where Swift asks `withUnsafeCurrentTask`.
const void *_Nullable simrun_current_task(void);

/// 1 when `task` has finished, else 0.
int simrun_task_is_complete(const void *_Nonnull task);

/// The index of the first of `tasks` that has finished, or -1 (one call for a whole sweep of a
/// run's live tasks, which runs after every job that is not a task's).
int simrun_first_complete_task(const void *_Nonnull const *_Nonnull tasks, int count);

/// Reads `task` into `state`; its frames only when `read_frames` is 1 and it neither runs nor is queued.
/// A read that holds what no task can turns reading off for the process (`simrun_task_state_refusal`)
/// and leaves `state` cleared (nothing known).
void simrun_task_read(const void *_Nonnull task, int read_frames, struct simrun_task_state *_Nonnull state);


/// While a task is being created on this thread: copies up to `capacity` return addresses of the
/// creation, innermost first (the caller of `swift_task_create`, then its callers, read from the
/// frame-pointer chain), and returns how many; 0 outside a creation and where not interposed.
int simrun_task_creating_frames(const void *_Nullable *_Nonnull frames, int capacity);

/// While a task is being created on this thread: the entry (an async function pointer) and the
/// context it was given (the closure's captures; for a reabstraction thunk, the closure it wraps),
/// else NULL and NULL.
void simrun_task_creating_entry(const void *_Nullable *_Nonnull entry, const void *_Nullable *_Nonnull context);

// MARK: - Closures (closures.c, issue #24)

/// The function an async function pointer points to, when `pointer` lies in a segment of a loaded
/// object and the function in an executable one; else NULL (any other word, another platform).
const void *_Nullable simrun_async_function_target(const void *_Nullable pointer);

/// Copies `count` words from `address` into `words` without faulting: 1 when they were all readable,
/// 0 when not (unmapped memory, another platform: nothing is read there).
int simrun_read_words(const void *_Nonnull address, uintptr_t *_Nonnull words, int count);
// MARK: - Code symbols (symbols.c, issues #24 and #30)
//
// A code address named by the full symbol table (`.symtab`) of the object it lies in, read once per
// object from its file: creation sites, the async function a suspended task waits in, the method an
// actor job runs. Linux (ELF) only; elsewhere, and in stripped binaries, nothing is named.

/// The mangled name of the function containing `address`, or NULL when it cannot be named (no symbol
/// table, a stripped binary, another platform). The string lives as long as the process. When
/// `start` is not NULL it receives the function's first address.
const char *_Nullable simrun_code_symbol(const void *_Nonnull address, uintptr_t *_Nullable start);

/// 1 when this process's own code can be named by `simrun_code_symbol`, else 0.
int simrun_code_symbols_readable(void);

/// `simrun_code_symbol` for a signal handler: NULL at once when the tables are being read by
/// another caller (a trap inside a lookup), instead of waiting for them.
const char *_Nullable simrun_code_symbol_nowait(const void *_Nonnull address);

/// The file name of the shared library holding code `address` ("libdispatch.so"), for a signal
/// handler: NULL for the main program, when unknown, or when the tables are being read.
const char *_Nullable simrun_code_library_nowait(const void *_Nonnull address);

// MARK: - Trap reporter (trap.c, issue #43)
//
// Where a child process trapped, for telling crashes apart across build configurations: an
// optimized build traps without a message, so a crash is identified by its job and the functions
// it trapped in. Linux only (the frames are named from `.symtab`); elsewhere nothing is installed.

/// Installs handlers for SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS and SIGFPE that write one line to
/// stderr, `simrun-trap-frames: <symbol> <symbol> …` (the trapping function first, then its callers
/// by the frame-pointer chain, mangled, `?` where unnamed), then let the signal take the process
/// down as it would have. Returns 1 when installed, 0 where it cannot be (another platform).
int simrun_install_trap_reporter(void);

// MARK: - Grand Central Dispatch (dispatch.c, issue #31)
//
// libdispatch's entry points (`dispatch_async`, `_after`, `_barrier_async`, `_group_async`,
// `_group_notify`, `_group_leave`, `_sync`, `_barrier_sync`, `_semaphore_wait`, `_group_wait`,
// `_apply`, `_source_create`, queue creation) on a thread whose clocks are bound to a run are handed
// to the run (SimCapture's `DispatchCapture`); elsewhere they are libdispatch's. Linux only: on other
// platforms `simrun_dispatch_interposed` is 0 and GCD stays real.

/// What an item was submitted with.
enum {
    SIMRUN_DISPATCH_ASYNC = 0,
    SIMRUN_DISPATCH_AFTER = 1,
    SIMRUN_DISPATCH_BARRIER = 2,
    SIMRUN_DISPATCH_GROUP_ASYNC = 3,
    SIMRUN_DISPATCH_NOTIFY = 4,
};

/// What a call does to a timer source.
enum {
    SIMRUN_DISPATCH_TIMER_SET = 0,
    SIMRUN_DISPATCH_TIMER_HANDLER = 1,
    SIMRUN_DISPATCH_TIMER_CANCEL_HANDLER = 2,
    SIMRUN_DISPATCH_TIMER_RESUME = 3,
    SIMRUN_DISPATCH_TIMER_ACTIVATE = 4,
    SIMRUN_DISPATCH_TIMER_SUSPEND = 5,
    SIMRUN_DISPATCH_TIMER_CANCEL = 6,
};

/// What a wait waits on.
enum {
    SIMRUN_DISPATCH_WAIT_SEMAPHORE = 0,
    SIMRUN_DISPATCH_WAIT_GROUP = 1,
};

/// A block (or function and context) submitted to a queue inside a run, held until the run runs it.
typedef struct simrun_dispatch_item {
    /// The queue (retained).
    void *_Nonnull queue;
    /// The block (copied), or NULL for a function and context.
    void *_Nullable block;
    void *_Nullable context;
    void (*_Nullable function)(void *_Nullable);
    /// The group a group item entered, or a notification's group (retained), or NULL.
    void *_Nullable group;
    /// `dispatch_time_t` deadline of an `after` item.
    uint64_t when;
    /// One of `SIMRUN_DISPATCH_ASYNC` …
    int kind;
    /// 1 when the item is a barrier: submitted as one, or a block made with the barrier flag
    /// (`DispatchWorkItem(flags: .barrier)`, `async(group:flags: .barrier)`), which libdispatch
    /// honours whatever function submits it.
    int barrier;
} simrun_dispatch_item;

/// 1 when the process's libdispatch entry points are simrun's (Linux, executable linking SimCapture).
int simrun_dispatch_interposed(void);
/// How many dispatch calls were handed to a run in this process.
uint64_t simrun_dispatch_captured_calls(void);
/// Bit 0: the queue is concurrent; bit 1: created inactive. `target` receives its target queue (NULL: default).
int simrun_dispatch_queue_facts(void *_Nonnull queue, void *_Nullable *_Nonnull target);
/// libdispatch's main queue object.
void *_Nullable simrun_dispatch_main_queue(void);
/// A queue's label ("" when none).
const char *_Nonnull simrun_dispatch_queue_label(void *_Nonnull queue);
/// Runs an item (inside libdispatch's `dispatch_sync_f` on its queue when `on_queue`); leaves its group.
void simrun_dispatch_item_run(simrun_dispatch_item *_Nonnull item, int on_queue);
/// A new item for `block` (copied) or `function` on `queue` (retained).
simrun_dispatch_item *_Nonnull simrun_dispatch_item_make(int kind, void *_Nonnull queue, void *_Nullable block,
                                                         void *_Nullable context,
                                                         void (*_Nullable function)(void *_Nullable));
/// A copy of an item (its block copied, its queue retained; no group).
simrun_dispatch_item *_Nonnull simrun_dispatch_item_clone(const simrun_dispatch_item *_Nonnull item);
/// Releases an item's block, queue and group and frees it.
void simrun_dispatch_item_free(simrun_dispatch_item *_Nonnull item);
/// libdispatch's own non-blocking wait (0: acquired / the group is empty).
long simrun_dispatch_try_wait(int kind, void *_Nonnull object);
/// Runs a sync block on `queue` through libdispatch (the queue is idle: its work is held by the run).
void simrun_dispatch_sync_on_queue(void *_Nonnull queue, void *_Nullable block, void *_Nullable context,
                                   void (*_Nullable function)(void *_Nullable), int barrier);
/// Calls a block (not copied) or a function with its context, on this thread.
void simrun_dispatch_invoke(void *_Nullable block, void *_Nullable context, void (*_Nullable function)(void *_Nullable));
/// Runs iteration `index` of a `dispatch_apply` block or function.
void simrun_dispatch_apply_iteration(void *_Nullable block, void *_Nullable context,
                                     void (*_Nullable function)(void *_Nullable, size_t), size_t index);
/// A `dispatch_time_t` as virtual nanoseconds: -1 for DISPATCH_TIME_NOW, INT64_MAX for FOREVER.
int64_t simrun_dispatch_virtual_deadline(uint64_t when);

// MARK: - (end of Grand Central Dispatch)
// MARK: - Carriers and locks (locks.c, issue #31)
//
// Carriers are threads that take turns: exactly one holds the turn and runs; it passes the turn by
// posting the next carrier's baton and waiting on its own (`SimCapture/Carriers`). On Linux the pthread
// mutex and condition functions are defined here: on a thread bound with `simrun_locks_bind` (a
// carrier running a job of a run) they call the run's hook, anywhere else they forward untouched.
//
// The park/unpark seam for blocking waits of other interposers (a `dispatch_semaphore_wait` on a
// carrier, say) is on the Swift side: `Carriers.park(reason:)` parks the calling carrier until
// `Carriers.unpark(_:)`, passing the turn meanwhile; see SimCapture's CarriersAndPreemption article.

/// One carrier's wait/post pair (a semaphore on Linux, a mutex and condition elsewhere).
typedef struct simrun_baton simrun_baton;

/// A new baton, not posted; NULL when out of memory. Batons live as long as their carrier.
simrun_baton *_Nullable simrun_baton_create(void);
/// Blocks until the baton is posted (consumes one post).
void simrun_baton_wait(simrun_baton *_Nonnull baton);
/// Posts the baton: its waiting carrier (or its next wait) continues.
void simrun_baton_post(simrun_baton *_Nonnull baton);
/// Starts a detached thread (8 MiB of stack) running `body(argument)`; 0 or an errno value.
int simrun_thread_spawn(void (*_Nonnull body)(void *_Nullable), void *_Nullable argument);

/// What a lock operation on a bound thread tells the run's hook.
enum {
    /// About to lock `object` (a mutex): a point where the scheduler may switch carriers (`preempt`).
    SIMRUN_LOCK_ACQUIRE = 1,
    /// The mutex `object` is held by another (paused) carrier: park until it is released, then retry.
    SIMRUN_LOCK_BLOCKED = 2,
    /// The mutex `object` was released (only while `*waiters` > 0).
    SIMRUN_LOCK_RELEASED = 3,
    /// Waiting on the condition `object` (its mutex already released): park until signalled.
    SIMRUN_LOCK_CONDITION_WAIT = 4,
    /// The condition `object` is signalled (one waiter wakes).
    SIMRUN_LOCK_SIGNAL = 5,
    /// The condition `object` is broadcast (every waiter wakes).
    SIMRUN_LOCK_BROADCAST = 6,
    /// The mutex `object` was just taken while this carrier holds others (`simrun_locks_held`): an
    /// edge of the run's lock order (issue #41). Only with `track_order`.
    SIMRUN_LOCK_ORDER = 7,
    /// The mutex `object` was just initialised (`pthread_mutex_init`): where it was made names its
    /// class in the lock order. Only with `track_order`.
    SIMRUN_LOCK_INIT = 8,
    /// A `Synchronization.Mutex` is about to be locked, tried or unlocked by the program (`caller`,
    /// also `object`): every such use reaches the run in a debug build (mutex.c); a lock point under
    /// `preempt` outside the runtime's one-time work.
    SIMRUN_LOCK_MUTEX = 9,
    /// As `SIMRUN_LOCK_MUTEX`, from a copy inlined by an optimised build: only the first use after
    /// each lock point (and at a job's start) reaches the run; later ones in that stretch do not.
    SIMRUN_LOCK_MUTEX_FIRST = 10,
};

/// Where a lock call comes from (lock_sites.c): what decides whether it is a lock point. Only the
/// program's own code, Foundation's NSLock family and the concurrency runtime's per-object locks carry
/// program meaning; the runtime's one-time work and the system libraries' caches never do.
enum {
    /// The program's own code (the executable, a user's shared library).
    SIMRUN_SITE_PROGRAM = 0,
    /// NSLock, NSRecursiveLock, NSCondition, NSConditionLock (Foundation calling pthread itself).
    SIMRUN_SITE_NSLOCK = 1,
    /// A task's status lock in the concurrency runtime (cancellation, handlers, resumption).
    SIMRUN_SITE_STATUS = 2,
    /// A task group's lock.
    SIMRUN_SITE_GROUP = 3,
    /// An async stream's lock.
    SIMRUN_SITE_STREAM = 4,
    /// A continuation's lock.
    SIMRUN_SITE_CONTINUATION = 5,
    /// Another lock of the concurrency runtime.
    SIMRUN_SITE_CONCURRENCY = 6,
    /// A system library's own lock (Foundation's caches, ICU, the C++ runtime): never a lock point.
    SIMRUN_SITE_LIBRARY = 7,
    /// The Swift runtime's one-time work (metadata, conformances): never a lock point, never parks.
    SIMRUN_SITE_RUNTIME = 8,
    /// A `Synchronization.Mutex` of the program's (its lock word is the object).
    SIMRUN_SITE_MUTEX = 9,
};

/// The site of a lock call from `caller` (a return address), classified once per address.
int simrun_lock_site(const void *_Nullable caller);
/// 1 when locks from `site` are lock points under `--preempt`, else 0.
int simrun_lock_site_is_point(int site);
/// 1 when `address` lies in the program's own code (not the toolchain's or the system's libraries).
int simrun_address_is_program(const void *_Nullable address);

/// What the runtime was asked to do to a task whose status lock is taken (status_locks.c).
enum {
    /// `Task.cancel()`: the cancelled task's lock, held while its cancellation handlers run.
    SIMRUN_STATUS_CANCEL = 1,
    /// A continuation resumed: the resumed task's lock.
    SIMRUN_STATUS_RESUME = 2,
};
/// The task whose status lock a call on this carrier is about to take, and why (`operation`), or
/// NULL outside `swift_task_cancel` and the continuation resumes.
const void *_Nullable simrun_status_lock_task(int *_Nullable operation);
/// The kernel thread id of the thread holding `mutex` (glibc keeps it in the mutex), 0 when unknown.
int simrun_mutex_owner(const void *_Nonnull mutex);
/// The calling thread's kernel thread id (0 where it cannot be told).
int simrun_thread_id(void);

/// A run's hook, bound to a carrier while it runs a job. The hook runs with the binding removed (its
/// own locks forward) and may pass the turn away; it returns when this carrier holds it again.
typedef struct simrun_lock_hooks {
    void *_Nullable context;
    void (*_Nonnull event)(void *_Nullable context, int operation, const void *_Nullable object,
                           const void *_Nullable caller, int site);
    /// Lock acquisitions from a point site (`simrun_lock_site_is_point`) outside the runtime's
    /// one-time work are scheduling points (`--preempt`).
    int preempt;
    /// How many carriers wait for a mutex to be released (unlocks call the hook only when > 0).
    const volatile int *_Nullable waiters;
    /// Lock-order events (`SIMRUN_LOCK_ORDER`, `SIMRUN_LOCK_INIT`) are reported.
    int track_order;
} simrun_lock_hooks;

/// While a `SIMRUN_LOCK_INIT` hook runs: the return addresses above `pthread_mutex_init` (its caller
/// first), read from the frame-pointer chain; returns how many (at most `capacity`).
int simrun_lock_init_frames(const void *_Nullable *_Nonnull frames, int capacity);
/// The mutexes the calling carrier holds from lock-point sites, oldest first (at most `capacity`,
/// up to 16 are kept); returns how many it holds.
int simrun_locks_held(const void *_Nullable *_Nonnull mutexes, int capacity);

/// Registers the calling thread as a carrier (a pool carrier for good, a run's driver for the run):
/// a mutex held by a carrier parks a carrier that wants it; one held by any other thread is waited
/// for for real, since that thread is not paused by a run and will release it.
void simrun_carrier_thread_register(void);
/// Unregisters the calling thread (a driver whose run ended).
void simrun_carrier_thread_unregister(void);
/// 1 when the kernel thread `tid` is a registered carrier, else 0.
int simrun_is_carrier_thread(int tid);

// MARK: - Synchronization.Mutex (mutex.c, issue #40)

/// Readies the executable's copies of the Mutex's thread-id function once per process: each debug
/// copy is patched to report every use; the thread-local caches of the others are found, to be
/// cleared per job. Idempotent and thread-safe.
void simrun_mutex_prepare(void);
/// How many copies `simrun_mutex_prepare` patched (every use seen) and how many are inlined (only
/// the first use after a point seen); returns 1 once prepared, else 0.
int simrun_mutex_copies(int *_Nullable patched, int *_Nullable inlined);
/// Clears the calling thread's thread-id caches of inlined copies: its next Mutex use is seen.
void simrun_mutex_forget_thread_ids(void);
/// The kernel thread id holding the Mutex lock word `word`, 0 when free.
int simrun_mutex_owner_of_word(const void *_Nonnull word);

/// What `simrun_executable_symbols` looks for.
enum {
    /// A function: its run-time address.
    SIMRUN_SYMBOL_FUNCTION = 1,
    /// A thread-local variable: its offset in the executable's thread-local block.
    SIMRUN_SYMBOL_THREAD_LOCAL = 2,
};
/// The values of the executable's symbols named `name` of `kind`, local ones included (its full
/// symbol table); writes at most `capacity` and returns how many there are (0 when unreadable).
int simrun_executable_symbols(const char *_Nonnull name, int kind, uintptr_t *_Nonnull values, int capacity);
/// How deep the calling carrier is in the runtime's one-time work (a lazy global's `swift_once`, a
/// libswiftCore lock held): no lock point pauses there.
int simrun_locks_one_time_depth(void);

/// Binds this thread's lock operations to `hooks` (NULL: forward everything).
void simrun_locks_bind(const simrun_lock_hooks *_Nullable hooks);
/// This thread's binding.
const simrun_lock_hooks *_Nullable simrun_locks_binding(void);
/// Marks this thread as holding a turn of the run `run` (NULL: of none): "this thread belongs to a
/// run" for checks that are not clocks or locks (ThreadConfinement).
void simrun_turn_bind(void *_Nullable run);
/// The run this thread holds a turn of, or NULL.
void *_Nullable simrun_turn_binding(void);
/// 1 when the process's pthread mutex and condition functions are simrun's, else 0 (macOS,
/// thread-sanitizer builds, a link that left them to the C library).
int simrun_locks_interposed(void);
/// How many lock acquisitions were scheduling points in this process so far.
uint64_t simrun_locks_points(void);
// MARK: - Run-loop timers and blocks (runloop.c, issue #40)

/// Fires a captured run-loop timer (its callout); 1 when it repeats and is still valid (schedule it
/// again after its interval), 0 when it is done.
int simrun_runloop_fire(void *_Nonnull timer);
/// A timer's repeat interval in seconds (0 for a one-shot timer).
double simrun_runloop_interval(void *_Nonnull timer);
/// Lets go of a captured timer (the run retained it when it was added).
void simrun_runloop_forget(void *_Nonnull timer);
/// Runs a captured run-loop block and releases it.
void simrun_runloop_run_block(void *_Nonnull block);
/// Keeps a run-loop block past the call that passed it.
void *_Nonnull simrun_runloop_copy_block(void *_Nonnull block);
/// 1 when the process's CFRunLoop timer and block functions are simrun's (Linux), else 0.
int simrun_runloop_interposed(void);

// MARK: - Threads (threads.c, issue #40)

/// The C library's `pthread_create`, past simrun's (for simrun's own threads).
int simrun_real_pthread_create(pthread_t *_Nonnull thread, const pthread_attr_t *_Nullable attributes,
                               void *_Nullable (*_Nonnull start)(void *_Nullable), void *_Nullable argument);
/// 1 when the process's `pthread_create`, `pthread_join` and sleeps are simrun's (Linux), else 0.
int simrun_threads_interposed(void);

// MARK: - Child processes (children.c): none outlives its parent

/// Lists a child process (its own process group) for `simrun_children_kill_all`; 0 when the list
/// is closed (the process is ending): the caller ends the child it just started.
int simrun_children_add(int pid);
/// Refuses children from now on (the process is ending): `simrun_children_add` answers 0, and the
/// caller ends the child it just started. Async-signal-safe.
void simrun_children_close(void);
/// Unlists a child that ended.
void simrun_children_remove(int pid);
/// Kills every listed child's process group (async-signal-safe: a signal handler may call it);
/// returns how many were listed.
int simrun_children_kill_all(void);
/// Sends `signal` to every listed child's process group, keeping them listed (an ending parent asks
/// them to stop, SIGTERM, before `simrun_children_kill_all`); returns how many were listed.
int simrun_children_signal_all(int signal);
/// Asks every listed child to stop (SIGTERM: a child of simrun removes the files it was writing)
/// and waits at most `milliseconds` for each to end; 1 when all did. Async-signal-safe: a child of
/// simrun ended by its parent ends its own children so first (their files go too, not only theirs
/// killed with their parent).
int simrun_children_end(int milliseconds);
/// How many listed children are still there (a child that ended stays until it is waited for).
int simrun_children_alive(void);
/// In a child: asks to be killed when the parent process dies (Linux: PR_SET_PDEATHSIG; Darwin: a
/// thread that waits for the parent's exit). Exits at once when the parent is already gone.
void simrun_die_with_parent(void);

// MARK: - (end of carriers and locks)

// MARK: - Actor entry (actors.c, issue #40)
//
// `swift_task_switch` is interposed on Linux (x86_64, arm64): a hop onto a default actor made on a
// thread bound to a run first asks the run (`simrun_actor_entering`, SimCapture) whether a job that is
// ready now goes first, then goes on to the runtime's function. Elsewhere nothing is interposed.

/// 1 when this process's `swift_task_switch` is simrun's (entering an actor can be a decision), else 0.
int simrun_actor_entry_interposed(void);
/// How many hops onto a default actor were made on a run's thread in this process.
uint64_t simrun_actor_hops(void);

// MARK: - (end of actor entry)

#ifdef __cplusplus
}
#endif

#endif
