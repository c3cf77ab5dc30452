// The closure a task was created to run (issue #24): `swift_task_create` receives the task's entry as
// an async function pointer (swift/ABI: a 32-bit offset, relative to itself, to the function, then the
// context size). To follow one found in memory (a word of a partial-apply context) it must first be
// known to lie in a loaded object: the segments of every object loaded when first asked are read once
// and kept. Linux (ELF) only; elsewhere nothing is followed.
#if defined(__linux__)
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#endif
#include "CSimInterpose.h"

#if defined(__linux__)

#include <link.h>
#include <pthread.h>

struct loaded_range {
    uintptr_t low, high;
    int executable;
};

// Bounded: past it, words in further segments are not followed (the caller names the task otherwise).
enum { max_loaded_ranges = 256 };
static struct loaded_range ranges[max_loaded_ranges];
static size_t range_count;
static pthread_once_t ranges_once = PTHREAD_ONCE_INIT;

static int collect(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    (void)data;
    for (int i = 0; i < info->dlpi_phnum && range_count < max_loaded_ranges; i++) {
        const ElfW(Phdr) *phdr = &info->dlpi_phdr[i];
        if (phdr->p_type != PT_LOAD || !(phdr->p_flags & PF_R)) continue;
        uintptr_t low = info->dlpi_addr + phdr->p_vaddr;
        ranges[range_count++] = (struct loaded_range){low, low + phdr->p_memsz, (phdr->p_flags & PF_X) != 0};
    }
    return 0;
}

static void read_ranges(void) { dl_iterate_phdr(collect, NULL); }

// The kind of loaded segment [address, address + length) lies in: 2 executable, 1 readable, 0 none.
static int segment_of(uintptr_t address, size_t length) {
    for (size_t i = 0; i < range_count; i++)
        if (address >= ranges[i].low && address + length <= ranges[i].high) return ranges[i].executable ? 2 : 1;
    return 0;
}

const void *simrun_async_function_target(const void *pointer) {
    uintptr_t address = (uintptr_t)pointer;
    if (address & 3) return NULL;
    pthread_once(&ranges_once, read_ranges);
    if (!segment_of(address, 8)) return NULL;
    uintptr_t target = address + (intptr_t) * (const int32_t *)pointer;
    return segment_of(target, 1) == 2 ? (const void *)target : NULL;
}

#else

const void *simrun_async_function_target(const void *pointer) {
    (void)pointer;
    return NULL;
}

#endif

// Reading a word that may not be mapped (issue #24: an async context chain that may be stale).
#if defined(__linux__)
#include <sys/uio.h>
#include <unistd.h>

int simrun_read_words(const void *address, uintptr_t *words, int count) {
    struct iovec local = {words, (size_t)count * sizeof(uintptr_t)};
    struct iovec remote = {(void *)address, (size_t)count * sizeof(uintptr_t)};
    return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)local.iov_len;
}
#else
int simrun_read_words(const void *address, uintptr_t *words, int count) {
    (void)address;
    (void)words;
    (void)count;
    return 0;
}
#endif
