// Code addresses named by the loaded objects' own symbol tables (issues #24 and #30): a task's
// creation site, the async function a suspended task waits in, the method an actor job runs. The
// dynamic symbol table (what `dladdr` reads) holds only exported symbols, and `dladdr` answers with
// the nearest exported one even when the address lies in a local function after it; the full
// `.symtab` (kept unless the binary is stripped) has every function with its size. Each object's
// table is read once, from the file the object was loaded from, sorted by address, and kept for the
// life of the process. Linux (ELF) only; elsewhere no address is named and the caller says so.
#if defined(__linux__)
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#endif
#include "CSimInterpose.h"

#if defined(__linux__)

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct code_symbol {
    uintptr_t start; // run-time address
    uintptr_t size;
    const char *name; // into the object's mapped string table
};

struct code_object {
    uintptr_t bias;     // dlpi_addr: run-time address = st_value + bias
    uintptr_t low, high; // the executable segments' run-time range
    struct code_symbol *symbols;
    size_t count;
    int readable;
    // The object's file name without its directory ("libFoundation.so"); empty for the main program.
    char file[64];
};

// Bounded: a process rarely maps more objects with code than this; past it, addresses in the extra
// objects are not named (and the caller says the name is unknown).
enum { max_code_objects = 64 };
static struct code_object objects[max_code_objects];
static size_t object_count;
// Not a pthread mutex: under `--preempt` every pthread_mutex_lock on a carrier is a lock point
// (locks.c), so a lookup would be one only when the names were not yet read (a run whose process
// looked them up before would schedule differently). A spin lock is nothing to the scheduler.
static atomic_flag objects_lock = ATOMIC_FLAG_INIT;

static void lock_objects(void) {
    while (atomic_flag_test_and_set_explicit(&objects_lock, memory_order_acquire)) sched_yield();
}

static void unlock_objects(void) { atomic_flag_clear_explicit(&objects_lock, memory_order_release); }

static int by_start(const void *a, const void *b) {
    uintptr_t x = ((const struct code_symbol *)a)->start, y = ((const struct code_symbol *)b)->start;
    return x < y ? -1 : x > y;
}

// Maps the file and collects its defined function symbols; the mapping is never unmapped, since the
// names point into it.
static void read_symbols(struct code_object *object, const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st;
    if (fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(ElfW(Ehdr))) {
        close(fd);
        return;
    }
    const unsigned char *file = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (file == MAP_FAILED) return;
    size_t length = (size_t)st.st_size;
    const ElfW(Ehdr) *header = (const ElfW(Ehdr) *)file;
    if (memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_shoff == 0 ||
        header->e_shoff + (size_t)header->e_shnum * sizeof(ElfW(Shdr)) > length) {
        munmap((void *)file, length);
        return;
    }
    const ElfW(Shdr) *sections = (const ElfW(Shdr) *)(file + header->e_shoff);
    const ElfW(Shdr) *table = NULL;
    for (int i = 0; i < header->e_shnum; i++)
        if (sections[i].sh_type == SHT_SYMTAB) table = &sections[i];
    if (!table || table->sh_link >= header->e_shnum || table->sh_entsize != sizeof(ElfW(Sym))) {
        munmap((void *)file, length);
        return;
    }
    const ElfW(Shdr) *strings = &sections[table->sh_link];
    if (table->sh_offset + table->sh_size > length || strings->sh_offset + strings->sh_size > length) {
        munmap((void *)file, length);
        return;
    }
    const ElfW(Sym) *symbols = (const ElfW(Sym) *)(file + table->sh_offset);
    size_t total = table->sh_size / sizeof(ElfW(Sym));
    struct code_symbol *kept = malloc(total * sizeof(struct code_symbol));
    if (!kept) {
        munmap((void *)file, length);
        return;
    }
    size_t count = 0;
    for (size_t i = 0; i < total; i++) {
        const ElfW(Sym) *symbol = &symbols[i];
        if (ELF64_ST_TYPE(symbol->st_info) != STT_FUNC || symbol->st_shndx == SHN_UNDEF || symbol->st_value == 0)
            continue;
        if (symbol->st_name >= strings->sh_size) continue;
        kept[count].start = (uintptr_t)symbol->st_value + object->bias;
        kept[count].size = (uintptr_t)symbol->st_size;
        kept[count].name = (const char *)(file + strings->sh_offset + symbol->st_name);
        count++;
    }
    qsort(kept, count, sizeof(struct code_symbol), by_start);
    object->symbols = kept;
    object->count = count;
    object->readable = count > 0;
}

struct object_search {
    uintptr_t address;
    int found;
    uintptr_t bias, low, high;
    int is_main;
    char path[4096];
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
        search->bias = info->dlpi_addr;
        search->low = low;
        search->high = high;
        // The main program has an empty name: its file is /proc/self/exe.
        search->is_main = !(info->dlpi_name && info->dlpi_name[0]);
        const char *name = search->is_main ? "/proc/self/exe" : info->dlpi_name;
        strncpy(search->path, name, sizeof(search->path) - 1);
        search->path[sizeof(search->path) - 1] = 0;
        return 1;
    }
    return 0;
}

static struct code_object *object_for(uintptr_t address) {
    for (size_t i = 0; i < object_count; i++)
        if (address >= objects[i].low && address < objects[i].high) return &objects[i];
    struct object_search search = {.address = address};
    dl_iterate_phdr(find_object, &search);
    if (!search.found || object_count == max_code_objects) return NULL;
    struct code_object *object = &objects[object_count++];
    object->bias = search.bias;
    object->low = search.low;
    object->high = search.high;
    object->file[0] = 0;
    if (!search.is_main) {
        const char *slash = strrchr(search.path, '/');
        strncpy(object->file, slash ? slash + 1 : search.path, sizeof(object->file) - 1);
        object->file[sizeof(object->file) - 1] = 0;
    }
    read_symbols(object, search.path);
    return object;
}

// The lookup, with the objects locked by the caller.
static const char *lookup_locked(uintptr_t target, uintptr_t *start) {
    const char *name = NULL;
    struct code_object *object = object_for(target);
    if (object && object->readable) {
        // The last symbol starting at or before the address, if the address lies within it (a
        // symbol of size 0 is taken as reaching to the next one).
        size_t low = 0, high = object->count;
        while (low < high) {
            size_t middle = low + (high - low) / 2;
            if (object->symbols[middle].start <= target) low = middle + 1;
            else high = middle;
        }
        if (low > 0) {
            const struct code_symbol *symbol = &object->symbols[low - 1];
            int inside = symbol->size ? target < symbol->start + symbol->size
                                      : (low == object->count || target < object->symbols[low].start);
            if (inside) {
                name = symbol->name;
                if (start) *start = symbol->start;
            }
        }
    }
    return name;
}

const char *simrun_code_symbol(const void *address, uintptr_t *start) {
    lock_objects();
    const char *name = lookup_locked((uintptr_t)address, start);
    unlock_objects();
    return name;
}

const char *simrun_code_symbol_nowait(const void *address) {
    // A trap may come while this thread (or another) holds the lock: then nothing is named.
    if (atomic_flag_test_and_set_explicit(&objects_lock, memory_order_acquire)) return NULL;
    const char *name = lookup_locked((uintptr_t)address, NULL);
    unlock_objects();
    return name;
}

const char *simrun_code_library_nowait(const void *address) {
    if (atomic_flag_test_and_set_explicit(&objects_lock, memory_order_acquire)) return NULL;
    struct code_object *object = object_for((uintptr_t)address);
    const char *file = object && object->file[0] ? object->file : NULL;
    unlock_objects();
    return file;
}

// The executable's load bias (the first object dl_iterate_phdr reports is the executable).
static int executable_bias(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    *(uintptr_t *)data = info->dlpi_addr;
    return 1;
}

int simrun_executable_symbols(const char *name, int kind, uintptr_t *values, int capacity) {
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    struct stat st;
    if (fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(ElfW(Ehdr))) {
        close(fd);
        return 0;
    }
    size_t length = (size_t)st.st_size;
    const unsigned char *file = mmap(NULL, length, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (file == MAP_FAILED) return 0;
    int found = 0;
    const ElfW(Ehdr) *header = (const ElfW(Ehdr) *)file;
    if (memcmp(header->e_ident, ELFMAG, SELFMAG) == 0 && header->e_shoff != 0 &&
        header->e_shoff + (size_t)header->e_shnum * sizeof(ElfW(Shdr)) <= length) {
        const ElfW(Shdr) *sections = (const ElfW(Shdr) *)(file + header->e_shoff);
        uintptr_t bias = 0;
        dl_iterate_phdr(executable_bias, &bias);
        for (int i = 0; i < header->e_shnum; i++) {
            const ElfW(Shdr) *table = &sections[i];
            if (table->sh_type != SHT_SYMTAB || table->sh_link >= header->e_shnum ||
                table->sh_entsize != sizeof(ElfW(Sym)))
                continue;
            const ElfW(Shdr) *strings = &sections[table->sh_link];
            if (table->sh_offset + table->sh_size > length || strings->sh_offset + strings->sh_size > length) continue;
            const ElfW(Sym) *symbols = (const ElfW(Sym) *)(file + table->sh_offset);
            size_t total = table->sh_size / sizeof(ElfW(Sym));
            int wanted = kind == SIMRUN_SYMBOL_FUNCTION ? STT_FUNC : STT_TLS;
            for (size_t k = 0; k < total; k++) {
                const ElfW(Sym) *symbol = &symbols[k];
                if (ELF64_ST_TYPE(symbol->st_info) != wanted || symbol->st_shndx == SHN_UNDEF) continue;
                if (symbol->st_name >= strings->sh_size) continue;
                if (strcmp((const char *)(file + strings->sh_offset + symbol->st_name), name) != 0) continue;
                if (found < capacity)
                    values[found] = (uintptr_t)symbol->st_value + (kind == SIMRUN_SYMBOL_FUNCTION ? bias : 0);
                found++;
            }
        }
    }
    munmap((void *)file, length);
    return found;
}

int simrun_code_symbols_readable(void) {
    uintptr_t start = 0;
    return simrun_code_symbol((const void *)&simrun_code_symbols_readable, &start) != NULL;
}

#else

const char *simrun_code_symbol(const void *address, uintptr_t *start) {
    (void)address;
    (void)start;
    return NULL;
}

int simrun_code_symbols_readable(void) { return 0; }

int simrun_executable_symbols(const char *name, int kind, uintptr_t *values, int capacity) {
    (void)name;
    (void)kind;
    (void)values;
    (void)capacity;
    return 0;
}

const char *simrun_code_symbol_nowait(const void *address) {
    (void)address;
    return NULL;
}

const char *simrun_code_library_nowait(const void *address) {
    (void)address;
    return NULL;
}

#endif
