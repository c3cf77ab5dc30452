// The running executable's build id (issue #30): a trace header records the build that made it, so
// that a replay on another build can say so. Read from the loaded image, never from the file on
// disk (which a rebuild may already have replaced).
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CSimInterpose.h"

#include <string.h>

#if defined(__linux__)
#include <elf.h>
#include <link.h>

struct build_id_search {
    unsigned char *out;
    int capacity;
    int length;
};

// The first object dl_iterate_phdr reports is the main program: its PT_NOTE segments are walked
// for the GNU build-id note (NT_GNU_BUILD_ID, owner "GNU").
static int build_id_of_main_program(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct build_id_search *search = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *phdr = &info->dlpi_phdr[i];
        if (phdr->p_type != PT_NOTE) continue;
        const unsigned char *note = (const unsigned char *)(info->dlpi_addr + phdr->p_vaddr);
        const unsigned char *end = note + phdr->p_memsz;
        while (note + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *header = (const ElfW(Nhdr) *)note;
            const unsigned char *name = note + sizeof(ElfW(Nhdr));
            const unsigned char *desc = name + ((header->n_namesz + 3) & ~3u);
            const unsigned char *next = desc + ((header->n_descsz + 3) & ~3u);
            if (next > end) break;
            if (header->n_type == NT_GNU_BUILD_ID && header->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
                int length = (int)header->n_descsz;
                if (length > search->capacity) length = search->capacity;
                memcpy(search->out, desc, (size_t)length);
                search->length = length;
                return 1;
            }
            note = next;
        }
    }
    return 1;  // only the main program
}

int simrun_executable_build_id(unsigned char *out, int capacity) {
    struct build_id_search search = {out, capacity, 0};
    dl_iterate_phdr(build_id_of_main_program, &search);
    return search.length;
}

#elif defined(__APPLE__)
#include <mach-o/dyld.h>
#include <mach-o/loader.h>

// Image 0 is the main executable; its LC_UUID load command is the linker's build identity.
int simrun_executable_build_id(unsigned char *out, int capacity) {
    const struct mach_header *header = _dyld_get_image_header(0);
    if (header == NULL || header->magic != MH_MAGIC_64) return 0;
    const unsigned char *command = (const unsigned char *)header + sizeof(struct mach_header_64);
    for (uint32_t i = 0; i < header->ncmds; i++) {
        const struct load_command *load = (const struct load_command *)command;
        if (load->cmd == LC_UUID) {
            const struct uuid_command *uuid = (const struct uuid_command *)command;
            int length = capacity < 16 ? capacity : 16;
            memcpy(out, uuid->uuid, (size_t)length);
            return length;
        }
        command += load->cmdsize;
    }
    return 0;
}

#else
int simrun_executable_build_id(unsigned char *out, int capacity) {
    (void)out;
    (void)capacity;
    return 0;  // not available on this platform: traces record no build id (a --build-label still works)
}
#endif
