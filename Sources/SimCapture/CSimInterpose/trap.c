// Where a child process trapped (issue #43). A debug build's trap prints the runtime's message
// ("Precondition failed: …"); an optimized build's does not (the process dies of SIGILL, or SIGTRAP
// on arm64), so two builds of the same code could not tell that they crashed the same way. This
// handler writes the functions the process trapped in, innermost first, on one stderr line before
// the signal takes the process down: `simrun-trap-frames: <mangled> <mangled>|<library> …`, a frame
// in a shared library followed by its file name (a crash inside Foundation or libdispatch says so;
// the main program's frames carry none). The parent reads it (SimEngine's
// `ChildProcess.trapFrames(in:)`) and names the crash by its job and those functions.
//
// Only what a signal handler may do: the frames are walked by the frame-pointer chain (Swift keeps
// frame pointers), every word read with `process_vm_readv` (never a fault inside the handler), the
// names looked up without waiting on a lock (`simrun_code_symbol_nowait`), the line written with
// one `write`. An alarm bounds the handler: a lookup that reads a symbol table for the first time
// cannot keep the process alive. Linux only; elsewhere nothing is installed.
#if defined(__linux__)
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#endif
#include "CSimInterpose.h"

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))

#include <signal.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

enum { max_frames = 16, line_capacity = 4096 };

static const int reported_signals[] = {SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE};

static void append(char *line, size_t *length, const char *text) {
    size_t count = strlen(text);
    if (*length + count >= line_capacity - 2) count = line_capacity - 2 - *length;
    memcpy(line + *length, text, count);
    *length += count;
}

static void report_trap(int signal, siginfo_t *info, void *context) {
    (void)info;
    alarm(5);
    const ucontext_t *uc = context;
#if defined(__x86_64__)
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    uintptr_t fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
#else
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.pc;
    uintptr_t fp = (uintptr_t)uc->uc_mcontext.regs[29];
#endif
    uintptr_t addresses[max_frames];
    int count = 0;
    addresses[count++] = pc;
    // Each frame: the caller's frame pointer, then the return address. A return address is looked
    // up one byte back: a call to a function that never returns may be the last instruction.
    while (count < max_frames && fp != 0 && (fp & (sizeof(uintptr_t) - 1)) == 0) {
        uintptr_t frame[2];
        if (!simrun_read_words((const void *)fp, frame, 2) || frame[1] == 0) break;
        addresses[count++] = frame[1] - 1;
        if (frame[0] <= fp) break;  // the chain goes up the stack, or it is not a chain
        fp = frame[0];
    }
    char line[line_capacity];
    size_t length = 0;
    append(line, &length, "simrun-trap-frames:");
    for (int index = 0; index < count; index++) {
        const char *name = simrun_code_symbol_nowait((const void *)addresses[index]);
        append(line, &length, " ");
        append(line, &length, name ? name : "?");
        const char *library = simrun_code_library_nowait((const void *)addresses[index]);
        if (library) {
            append(line, &length, "|");
            append(line, &length, library);
        }
    }
    line[length++] = '\n';
    ssize_t written = write(STDERR_FILENO, line, length);
    (void)written;
    // SA_RESETHAND put the default action back: the process dies of the signal it would have died
    // of (raised here, since returning would run on past a trap that leaves the pc after it).
    raise(signal);
}

int simrun_install_trap_reporter(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = report_trap;
    action.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    for (size_t index = 0; index < sizeof reported_signals / sizeof reported_signals[0]; index++)
        if (sigaction(reported_signals[index], &action, NULL) != 0) return 0;
    return 1;
}

#else

int simrun_install_trap_reporter(void) { return 0; }

#endif
