// The C the runtime needs that Swift's Glibc module does not export: glibc's
// malloc_trim and mallopt (in <malloc.h>), eventfd, signalfd, naming threads and sizing
// a pipe (GNU extensions). Only BuntingRuntime imports this module.
#ifndef BUNTING_CRUNTIME_SHIM_H
#define BUNTING_CRUNTIME_SHIM_H

#include <stddef.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <signal.h>

/// Gives memory the allocator holds but no longer uses back to the system;
/// returns whether any was released (glibc's malloc_trim).
int bunting_malloc_trim(size_t pad);

/// Serves allocations up to `largest` bytes from the heap rather than from
/// their own mappings, and keeps up to twice that freed at the heap's top
/// instead of giving it back at once (glibc's M_MMAP_THRESHOLD and
/// M_TRIM_THRESHOLD); returns whether both were accepted.
int bunting_keep_freed_memory(size_t largest);

/// Names the calling thread (at most 15 bytes are kept), for `top -H` and debuggers.
int bunting_name_thread(const char *name);

/// Asks for a pipe buffer of `size` bytes on `fd` (F_SETPIPE_SZ); returns
/// the size the kernel gave, or -1 (not a pipe, or over the system's limit).
int bunting_set_pipe_size(int fd, int size);

#endif
