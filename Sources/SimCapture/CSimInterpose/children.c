// The child processes simrun starts, and how they end with their parent (issue #41: no orphans).
// Every child runs in its own process group (a Ctrl-C on the terminal reaches only the parent, which
// stops them in order), so nothing ends them when the parent dies abruptly. Two guards:
// - the parent keeps their process ids here, in a table a signal handler may read, and kills every
//   group still listed when it exits at once (a second Ctrl-C, SIGTERM to an immediate command);
// - a child asks the kernel to kill it when its parent dies (Linux: PR_SET_PDEATHSIG; Darwin: a
//   thread waiting on the parent's exit with kqueue).
#if defined(__linux__)
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#endif

#include "CSimInterpose.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/prctl.h>
#elif defined(__APPLE__)
#include <pthread.h>
#include <sys/event.h>
#endif

// Bounded: a campaign runs a worker per core and a few short-lived helpers; past the bound a child
// is not listed (the kernel-side guard still ends it with its parent).
enum { max_children = 256 };
static _Atomic int children[max_children];

// Set once the process is ending: a child started from then on would outlive the ending's SIGTERM.
static atomic_int closed;

int simrun_children_add(int pid) {
    if (pid <= 0) return 1;
    for (int k = 0; k < max_children; k++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&children[k], &expected, pid)) break;
    }
    // Listed first, then checked: an ending that closed the list meanwhile has signalled it, or
    // the caller ends it now.
    return atomic_load(&closed) ? 0 : 1;
}

void simrun_children_close(void) { atomic_store(&closed, 1); }

void simrun_children_remove(int pid) {
    if (pid <= 0) return;
    for (int k = 0; k < max_children; k++) {
        int expected = pid;
        if (atomic_compare_exchange_strong(&children[k], &expected, 0)) return;
    }
}

int simrun_children_kill_all(void) {
    int killed = 0;
    for (int k = 0; k < max_children; k++) {
        int pid = atomic_exchange(&children[k], 0);
        if (pid <= 0) continue;
        kill(-pid, SIGKILL);  // its group: the child and anything it started
        kill(pid, SIGKILL);
        killed++;
    }
    return killed;
}

int simrun_children_signal_all(int signal) {
    int signalled = 0;
    for (int k = 0; k < max_children; k++) {
        int pid = atomic_load(&children[k]);
        if (pid <= 0) continue;
        kill(-pid, signal);
        kill(pid, signal);
        signalled++;
    }
    return signalled;
}

int simrun_children_end(int milliseconds) {
    if (simrun_children_signal_all(SIGTERM) == 0) return 1;
    const struct timespec pause = {0, 10 * 1000 * 1000};
    for (int waited = 0; waited < milliseconds; waited += 10) {
        int running = 0;
        for (int k = 0; k < max_children; k++) {
            int pid = atomic_load(&children[k]);
            if (pid <= 0) continue;
            // Not reaped here (WNOWAIT): the thread that started it still waits for it. A zombie, or a
            // child already reaped (ECHILD), has ended.
            siginfo_t info;
            memset(&info, 0, sizeof info);
            if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == 0) running++;
        }
        if (running == 0) return 1;
        nanosleep(&pause, NULL);
    }
    return 0;
}

int simrun_children_alive(void) {
    int alive = 0;
    for (int k = 0; k < max_children; k++) {
        int pid = atomic_load(&children[k]);
        if (pid > 0 && kill(pid, 0) == 0) alive++;
    }
    return alive;
}

#if defined(__APPLE__)
static void *watch_parent(void *raw) {
    pid_t parent = (pid_t)(intptr_t)raw;
    int queue = kqueue();
    if (queue < 0) return NULL;
    struct kevent change;
    EV_SET(&change, parent, EVFILT_PROC, EV_ADD, NOTE_EXIT, 0, NULL);
    struct kevent event;
    if (kevent(queue, &change, 1, &event, 1, NULL) >= 0 || getppid() != parent) _exit(137);
    return NULL;
}
#endif

void simrun_die_with_parent(void) {
#if defined(__linux__)
    pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    // The parent may have died before the request took effect.
    if (getppid() != parent) _exit(137);
#elif defined(__APPLE__)
    pthread_t thread;
    if (pthread_create(&thread, NULL, watch_parent, (void *)(intptr_t)getppid()) == 0) pthread_detach(thread);
#endif
}
