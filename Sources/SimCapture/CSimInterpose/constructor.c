// Load-time installation of simrun's executors (see include/CSimInterpose.h and SimCapture's
// ExecutorFactoryGate). Only facts are gathered here; the decision is Swift's, where it is tested.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CSimInterpose.h"

#if defined(__APPLE__)
#include <mach/mach.h>
#include <pthread.h>
#elif defined(__linux__)
#include <dirent.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

// Defined in SimCapture with @_cdecl. Weak, so that an executable linking this target without SimCapture
// still loads (and simply installs nothing).
extern void simrun_executors_at_load(void) __attribute__((weak));

static int constructor_ran = 0;

__attribute__((constructor)) static void simrun_load_constructor(void) {
    constructor_ran = 1;
    if (simrun_executors_at_load) simrun_executors_at_load();
}

int simrun_load_constructor_ran(void) { return constructor_ran; }

int simrun_process_thread_count(void) {
#if defined(__APPLE__)
    thread_act_array_t threads;
    mach_msg_type_number_t count = 0;
    if (task_threads(mach_task_self(), &threads, &count) != KERN_SUCCESS) return -1;
    for (mach_msg_type_number_t i = 0; i < count; i++) mach_port_deallocate(mach_task_self(), threads[i]);
    vm_deallocate(mach_task_self(), (vm_address_t)threads, sizeof(thread_act_t) * count);
    return (int)count;
#elif defined(__linux__)
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks) return -1;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(tasks)) != NULL) {
        if (entry->d_name[0] != '.') count++;
    }
    closedir(tasks);
    return count;
#else
    return -1;
#endif
}

int simrun_on_main_thread(void) {
#if defined(__APPLE__)
    return pthread_main_np() ? 1 : 0;
#elif defined(__linux__)
    return syscall(SYS_gettid) == getpid() ? 1 : 0;
#else
    return -1;
#endif
}
