// The one interposition layer (DESIGN §11): C entry points defined in every executable and test
// executable that links SimCore. A definition in the executable wins over the shared library's for
// every PLT reference in the process (Linux, ELF); each interposer simulates when called on a thread
// that runs a simulation and forwards untouched (`dlsym(RTLD_NEXT, …)`) anywhere else.

#ifndef CSIMINTERPOSE_H
#define CSIMINTERPOSE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: Load-time executors (constructor.c)
//
// A constructor runs when the executable is loaded, before `main` (the test runner's, in a test
// process) and before any task exists: the one moment simrun's executors can be installed without
// owning `main`. It calls SimCore's `simrun_executors_at_load` (Swift, `@_cdecl`), which decides.

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

#ifdef __cplusplus
}
#endif

#endif
