#define _GNU_SOURCE
#include "shim.h"
#include <malloc.h>
#include <fcntl.h>
#include <pthread.h>

int bunting_malloc_trim(size_t pad) {
    return malloc_trim(pad);
}

int bunting_name_thread(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}

int bunting_set_pipe_size(int fd, int size) {
    return fcntl(fd, F_SETPIPE_SZ, size);
}
