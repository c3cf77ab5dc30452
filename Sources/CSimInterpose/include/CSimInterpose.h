// The interposition layer (DESIGN §11): the C entry points simrun defines in every executable and test
// executable that links SimCore. Each part keeps to its own marked section and source file.
#ifndef CSIMINTERPOSE_H
#define CSIMINTERPOSE_H

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

#ifdef __cplusplus
}
#endif

#endif
