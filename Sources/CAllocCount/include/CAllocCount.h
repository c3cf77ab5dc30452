#ifndef C_ALLOC_COUNT_H
#define C_ALLOC_COUNT_H

/// 1 when this process's allocations are counted (glibc: malloc and friends are wrapped), else 0.
int sim_alloc_count_available(void);
/// Allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made by the
/// calling thread so far.
unsigned long long sim_alloc_count(void);

#endif
