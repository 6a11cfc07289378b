// glibc's allocator: its statistics (mallinfo2, glibc 2.33 and later, a
// struct returned by value, which Swift reaches through this wrapper) for the
// gallery's memory benchmark, and its arena limit.
#ifndef PARALLAX_CGLIBCMALLOC_SHIM_H
#define PARALLAX_CGLIBCMALLOC_SHIM_H

#include <stddef.h>
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif

/// The allocator's bytes: taken from the system for its heaps (`heap`), in
/// blocks it mapped on their own (`mapped`), handed out and not yet freed
/// (`in_use`, heaps and mapped blocks), and freed but kept (`free`).
/// Returns 0 where glibc's mallinfo2 is not available.
static inline int pk_malloc_statistics(size_t *heap, size_t *mapped, size_t *in_use, size_t *free_kept) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    *heap = info.arena;
    *mapped = info.hblkhd;
    *in_use = info.uordblks + info.hblkhd;
    *free_kept = info.fordblks;
    return 1;
#else
    *heap = 0; *mapped = 0; *in_use = 0; *free_kept = 0;
    return 0;
#endif
}

/// Limits glibc to `count` malloc arenas (M_ARENA_MAX; by default 8 per
/// core). Call before threads start. Returns 0 where it cannot be set.
static inline int pk_malloc_limit_arenas(int count) {
#if defined(__GLIBC__)
    return mallopt(M_ARENA_MAX, count);
#else
    (void)count;
    return 0;
#endif
}

#endif
