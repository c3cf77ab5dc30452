// The interposition layer can be switched off (issue #40): with `SIMRUN_INTERPOSE=off` in the
// environment every interposer of this target (clocks, GCD, locks, run loops, threads, actor entry,
// task names, status locks) forwards to the real function, and each `simrun_*_interposed` says 0 —
// the shape a process has where the layer is absent (macOS today). It is read once, on the first
// call (the interposers run before any constructor of the executable), and never changes after.
#include "CSimInterpose.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

// 0: not read yet, 1: on, 2: off.
static _Atomic int interpose_mode;

int simrun_interpose_off(void) {
    int mode = atomic_load_explicit(&interpose_mode, memory_order_relaxed);
    if (__builtin_expect(mode == 0, 0)) {
        const char *value = getenv("SIMRUN_INTERPOSE");
        mode = value != NULL && strcmp(value, "off") == 0 ? 2 : 1;
        atomic_store_explicit(&interpose_mode, mode, memory_order_relaxed);
    }
    return mode == 2;
}

// Read at load time too, so that the mode is fixed before any run.
__attribute__((constructor)) static void simrun_interpose_mode_at_load(void) { (void)simrun_interpose_off(); }
