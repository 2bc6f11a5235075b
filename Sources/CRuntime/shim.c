#define _GNU_SOURCE
#include "shim.h"
#include <malloc.h>
#include <fcntl.h>
#include <pthread.h>

// glibc's malloc_trim sets up the allocator on its first call if nothing has
// allocated through it yet, and that set-up is not safe to run from two threads
// at once: the second sees it marked done and walks bins not yet linked (a read
// of address 8). A normal process has allocated long before it trims, but under
// AddressSanitizer or ThreadSanitizer every malloc goes to the sanitizer, so the
// first trims come to an untouched glibc heap from parallel test threads. One
// trim at a time costs nothing here: malloc_trim locks every arena anyway.
static pthread_mutex_t trim_lock = PTHREAD_MUTEX_INITIALIZER;

int bunting_malloc_trim(size_t pad) {
    pthread_mutex_lock(&trim_lock);
    int released = malloc_trim(pad);
    pthread_mutex_unlock(&trim_lock);
    return released;
}

int bunting_keep_freed_memory(size_t largest) {
    // Both settings turn glibc's own adjustment of the thresholds off.
    return mallopt(M_MMAP_THRESHOLD, (int)largest) && mallopt(M_TRIM_THRESHOLD, (int)(2 * largest));
}

int bunting_name_thread(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}

int bunting_set_pipe_size(int fd, int size) {
    return fcntl(fd, F_SETPIPE_SZ, size);
}
