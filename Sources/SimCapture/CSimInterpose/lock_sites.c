// Which lock calls carry program meaning (issue #41, DESIGN §12). A lock point must not depend on
// what the process ran before: the Swift runtime's one-time work (metadata and conformance caches,
// lazy globals) and the system libraries' internal caches (Foundation, ICU, the C++ runtime) take
// locks only on first use in a process, so a schedule that counted them would replay differently
// in a process that had warmed them up. Only these are lock points:
//   - the program's own code: the executable and any object outside the toolchain and the system
//     library directories (a user's packages are linked into the executable);
//   - Foundation's NSLock family (NSLock, NSRecursiveLock, NSCondition, NSConditionLock), whose
//     methods are the program's locks even where Foundation calls pthread itself;
//   - the concurrency runtime's per-object locks: a task's status lock (cancellation, handlers,
//     resumption), task groups, async streams, continuations.
// Each caller address is classified once by the object it lies in and, inside Foundation and the
// concurrency runtime, by the function's name in the object's own symbol table; the answer depends
// only on the code, never on the order things ran in.
#if defined(__linux__)
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#endif

#include "CSimInterpose.h"

#if defined(__linux__) && !defined(__SANITIZE_THREAD__) && !(defined(__has_feature) && __has_feature(thread_sanitizer))

#include <dlfcn.h>
#include <link.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

enum object_kind { object_program, object_core, object_concurrency, object_foundation, object_system };

// Bounded: past this many objects with code, calls from the extra ones are classified as system
// (never lock points), which errs on the side of fewer points, never unstable ones.
enum { max_objects = 64 };
static struct {
    uintptr_t low, high;
    enum object_kind kind;
} objects[max_objects];
static int object_count;
static char runtime_directory[1024];
static atomic_flag objects_lock = ATOMIC_FLAG_INIT;

static int has_prefix(const char *text, const char *prefix) { return strncmp(text, prefix, strlen(prefix)) == 0; }

static enum object_kind kind_of_path(const char *path) {
    if (path == NULL || path[0] == 0) return object_program;  // the executable itself
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (has_prefix(base, "libswiftCore.")) return object_core;
    if (has_prefix(base, "libswift_Concurrency.")) return object_concurrency;
    if (has_prefix(base, "libFoundation.")) return object_foundation;
    if (runtime_directory[0] && has_prefix(path, runtime_directory)) return object_system;
    static const char *const system_directories[] = {"/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "/usr/local/lib/"};
    for (size_t i = 0; i < sizeof system_directories / sizeof *system_directories; i++)
        if (has_prefix(path, system_directories[i])) return object_system;
    if (strstr(base, "ld-linux") || has_prefix(base, "linux-vdso")) return object_system;
    return object_program;
}

struct object_search {
    uintptr_t address;
    int found;
    uintptr_t low, high;
    enum object_kind kind;
};

static int find_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct object_search *search = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *phdr = &info->dlpi_phdr[i];
        if (phdr->p_type != PT_LOAD || !(phdr->p_flags & PF_X)) continue;
        uintptr_t low = info->dlpi_addr + phdr->p_vaddr, high = low + phdr->p_memsz;
        if (search->address < low || search->address >= high) continue;
        search->found = 1;
        search->low = low;
        search->high = high;
        search->kind = kind_of_path(info->dlpi_name);
        return 1;
    }
    return 0;
}

// The directory the Swift runtime was loaded from: its other libraries (Foundation's, ICU's, the
// test frameworks') are the toolchain's, not the program's.
static void note_runtime_directory(void) {
    if (runtime_directory[0]) return;
    Dl_info info;
    void *core = dlsym(RTLD_DEFAULT, "swift_retain");
    if (core == NULL || !dladdr(core, &info) || info.dli_fname == NULL) return;
    const char *slash = strrchr(info.dli_fname, '/');
    if (slash == NULL) return;
    size_t length = (size_t)(slash - info.dli_fname) + 1;
    if (length >= sizeof runtime_directory) return;
    memcpy(runtime_directory, info.dli_fname, length);
    runtime_directory[length] = 0;
}

static enum object_kind object_kind_at(uintptr_t address) {
    while (atomic_flag_test_and_set_explicit(&objects_lock, memory_order_acquire)) sched_yield();
    enum object_kind kind = object_system;
    int known = 0;
    for (int i = 0; i < object_count; i++) {
        if (address >= objects[i].low && address < objects[i].high) {
            kind = objects[i].kind;
            known = 1;
            break;
        }
    }
    if (!known) {
        note_runtime_directory();
        struct object_search search = {.address = address};
        dl_iterate_phdr(find_object, &search);
        if (search.found) {
            kind = search.kind;
            if (object_count < max_objects) {
                objects[object_count].low = search.low;
                objects[object_count].high = search.high;
                objects[object_count].kind = search.kind;
                object_count++;
            }
        }
    }
    atomic_flag_clear_explicit(&objects_lock, memory_order_release);
    return kind;
}

static int name_has(const char *name, const char *part) { return name != NULL && strstr(name, part) != NULL; }

static int classify(const void *caller) {
    switch (object_kind_at((uintptr_t)caller)) {
    case object_program:
        return SIMRUN_SITE_PROGRAM;
    case object_core:
        return SIMRUN_SITE_RUNTIME;
    case object_system:
        return SIMRUN_SITE_LIBRARY;
    case object_foundation: {
        // Mangled Swift names: 6NSLockC, 15NSRecursiveLockC, 11NSConditionC, 15NSConditionLockC.
        const char *name = simrun_code_symbol((const char *)caller - 1, NULL);
        if (name_has(name, "6NSLockC") || name_has(name, "15NSRecursiveLockC") || name_has(name, "11NSConditionC") ||
            name_has(name, "15NSConditionLockC"))
            return SIMRUN_SITE_NSLOCK;
        return SIMRUN_SITE_LIBRARY;
    }
    case object_concurrency: {
        const char *name = simrun_code_symbol((const char *)caller - 1, NULL);
        if (name_has(name, "withStatusRecordLock")) return SIMRUN_SITE_STATUS;
        if (name_has(name, "TaskGroup") || name_has(name, "taskGroup")) return SIMRUN_SITE_GROUP;
        if (name_has(name, "async_stream")) return SIMRUN_SITE_STREAM;
        if (name_has(name, "continuation")) return SIMRUN_SITE_CONTINUATION;
        return SIMRUN_SITE_CONCURRENCY;
    }
    }
    return SIMRUN_SITE_LIBRARY;
}

// Caller addresses seen, with their class, one word each (user-space addresses fit in 56 bits; the
// class is in the top byte): an open-addressing table, never shrunk. Bounded: when it is full an
// address is classified again on every call (slower, never different).
enum { site_slots = 4096 };
static _Atomic uintptr_t sites[site_slots];
static const uintptr_t address_mask = ((uintptr_t)1 << 56) - 1;

int simrun_lock_site(const void *caller) {
    uintptr_t key = (uintptr_t)caller & address_mask;
    if (key == 0) return SIMRUN_SITE_LIBRARY;
    size_t start = (size_t)(((key >> 2) * 0x9E3779B97F4A7C15ull) >> 52) & (site_slots - 1);
    size_t slot = start;
    for (int probe = 0; probe < 32; probe++) {
        uintptr_t seen = atomic_load_explicit(&sites[slot], memory_order_acquire);
        if ((seen & address_mask) == key) return (int)(seen >> 56) - 1;
        if (seen == 0) break;
        slot = (slot + 1) & (site_slots - 1);
    }
    int site = classify(caller);
    uintptr_t entry = key | ((uintptr_t)(site + 1) << 56);
    slot = start;
    for (int probe = 0; probe < 32; probe++) {
        uintptr_t expected = 0;
        if (atomic_compare_exchange_strong(&sites[slot], &expected, entry) || (expected & address_mask) == key) break;
        slot = (slot + 1) & (site_slots - 1);
    }
    return site;
}

int simrun_lock_site_is_point(int site) {
    return site != SIMRUN_SITE_LIBRARY && site != SIMRUN_SITE_RUNTIME;
}

int simrun_address_is_program(const void *address) {
    return object_kind_at((uintptr_t)address) == object_program;
}

#else

int simrun_lock_site(const void *caller) {
    (void)caller;
    return SIMRUN_SITE_LIBRARY;
}

int simrun_lock_site_is_point(int site) {
    (void)site;
    return 0;
}

int simrun_address_is_program(const void *address) {
    (void)address;
    return 0;
}

#endif
