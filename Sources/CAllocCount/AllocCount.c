// Counts the calling thread's heap allocations for the allocation tests (linked statically into
// their binary) and for `simrun bench --only allocations` (built as libSimAllocCount and preloaded
// into a child of simrun; never linked into simrun itself). On glibc the allocation functions are defined here and forward
// to glibc's own (`__libc_malloc`, …), so no dlsym (which itself allocates) is needed; elsewhere the
// counter says it is unavailable and the tests that need it are skipped, not passed. (Valgrind
// cannot run a binary that defines malloc like this: profile `simrun`, which does not link it.)
#include "CAllocCount.h"

#include <errno.h>  // first: on glibc it defines __GLIBC__, tested below
#include <stddef.h>

// Sanitizers bring their own malloc: wrapping it here would hide allocations from them.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define SIM_ALLOC_COUNT_OFF 1
#endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(SIM_ALLOC_COUNT_OFF)

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

// initial-exec: a preloaded library's TLS sits in the static block, so reading it never calls
// __tls_get_addr (which may itself allocate, and would recurse into malloc here).
static __thread unsigned long long allocations __attribute__((tls_model("initial-exec")));

void *malloc(size_t size) {
    allocations++;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    allocations++;
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    allocations++;
    return __libc_realloc(pointer, size);
}

void free(void *pointer) { __libc_free(pointer); }

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    allocations++;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *out = pointer;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    allocations++;
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    allocations++;
    return __libc_memalign(alignment, size);
}

int sim_alloc_count_available(void) { return 1; }
unsigned long long sim_alloc_count(void) { return allocations; }
#else
int sim_alloc_count_available(void) { return 0; }
unsigned long long sim_alloc_count(void) { return 0; }
#endif
