// Entering an actor is a choice (issue #40, DESIGN §12): `swift_task_switch` is defined here, in the
// executable, so every hop of the user's code onto an actor passes through it (Linux, ELF: the
// executable's definition wins over libswift_Concurrency's for every PLT reference). On a thread
// bound to a run, a hop onto a default actor first asks the run (SimCapture's `simrun_actor_entering`)
// whether a job that is ready now goes first: on real threads it could reach the actor before this
// task does. Then the hop is forwarded untouched to the runtime's function, as a tail call.

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "CSimInterpose.h"

extern void simrun_actor_entering(void *run, const void *actor) __attribute__((weak));

static _Atomic(void *) real_switch;
static _Atomic uint64_t actor_hops;

// Called by `swift_task_switch` below with the executor it switches to (two words): asks the run
// about a hop onto a default actor (an identity, no implementation), then returns the runtime's
// `swift_task_switch` for the tail call. A plain C function: it may run other jobs of the run.
__attribute__((visibility("hidden"), used)) void *simrun_actor_switch_hook(void *identity, uintptr_t implementation) {
    void *real = atomic_load_explicit(&real_switch, memory_order_acquire);
    if (__builtin_expect(real == NULL, 0)) {
        real = dlsym(RTLD_NEXT, "swift_task_switch");
        if (real == NULL) {
            fputs("simrun: swift_task_switch not found in the Swift runtime\n", stderr);
            abort();
        }
        atomic_store_explicit(&real_switch, real, memory_order_release);
    }
    if (identity != NULL && implementation == 0 && simrun_actor_entering != NULL && !simrun_interpose_off()) {
        simrun_clock_reader reader;
        void *run;
        simrun_clocks_binding(&reader, &run);
        if (reader != NULL && run != NULL) {
            atomic_fetch_add_explicit(&actor_hops, 1, memory_order_relaxed);
            simrun_actor_entering(run, identity);
        }
    }
    return real;
}

// `swift_task_switch(context, resume, SerialExecutorRef)` is swiftasync: the async context in its
// register (x86-64 r14, arm64 x22), `resume` and the executor's two words in the first argument
// registers. Written in assembly, not as a C `swiftasynccall` function: the compiler gives such a
// function a Swift async frame (bit 60 of the saved frame pointer set), which the C unwinders
// (`backtrace`, used by Swift Testing when a test throws) cannot walk past, and the hook runs whole
// jobs of the run beneath it. This frame is an ordinary one: it saves the arguments, calls the hook,
// restores them and jumps to the runtime's function (a tail call: the task's code returns there).
#if defined(__x86_64__)
__asm__(
    ".text\n"
    ".globl swift_task_switch\n"
    ".type swift_task_switch,@function\n"
    ".p2align 4\n"
    "swift_task_switch:\n"
    ".cfi_startproc\n"
    "    pushq %rbp\n"
    "    .cfi_def_cfa_offset 16\n"
    "    .cfi_offset %rbp, -16\n"
    "    movq %rsp, %rbp\n"
    "    .cfi_def_cfa_register %rbp\n"
    "    pushq %rdi\n"
    "    pushq %rsi\n"
    "    pushq %rdx\n"
    "    pushq %r14\n"
    "    movq %rsi, %rdi\n"
    "    movq %rdx, %rsi\n"
    "    call simrun_actor_switch_hook\n"
    "    popq %r14\n"
    "    popq %rdx\n"
    "    popq %rsi\n"
    "    popq %rdi\n"
    "    popq %rbp\n"
    "    .cfi_def_cfa %rsp, 8\n"
    "    jmpq *%rax\n"
    ".cfi_endproc\n"
    ".size swift_task_switch, .-swift_task_switch\n");
#elif defined(__aarch64__)
__asm__(
    ".text\n"
    ".globl swift_task_switch\n"
    ".type swift_task_switch,%function\n"
    ".p2align 2\n"
    "swift_task_switch:\n"
    ".cfi_startproc\n"
    "    stp x29, x30, [sp, #-48]!\n"
    "    .cfi_def_cfa_offset 48\n"
    "    .cfi_offset x30, -40\n"
    "    .cfi_offset x29, -48\n"
    "    mov x29, sp\n"
    "    .cfi_def_cfa x29, 48\n"
    "    stp x0, x1, [sp, #16]\n"
    "    stp x2, x22, [sp, #32]\n"
    "    mov x0, x1\n"
    "    mov x1, x2\n"
    "    bl simrun_actor_switch_hook\n"
    "    mov x16, x0\n"
    "    ldp x0, x1, [sp, #16]\n"
    "    ldp x2, x22, [sp, #32]\n"
    "    ldp x29, x30, [sp], #48\n"
    "    .cfi_def_cfa sp, 0\n"
    "    .cfi_restore x29\n"
    "    .cfi_restore x30\n"
    "    br x16\n"
    ".cfi_endproc\n"
    ".size swift_task_switch, .-swift_task_switch\n");
#endif

int simrun_actor_entry_interposed(void) { return !simrun_interpose_off(); }

uint64_t simrun_actor_hops(void) { return atomic_load_explicit(&actor_hops, memory_order_relaxed); }

#else

#include "CSimInterpose.h"

// Elsewhere the runtime's `swift_task_switch` is left alone: entering an idle actor is no decision.
int simrun_actor_entry_interposed(void) { return 0; }
uint64_t simrun_actor_hops(void) { return 0; }

#endif
