import CRuntime

/// Gives memory that the allocator keeps after large frees back to the
/// system. Loading a large document parses it twice over (jansson's tree,
/// then Swift's) before compiling it; without this the process would stay
/// at its peak size.
public func releaseFreedMemory() {
    _ = bunting_malloc_trim(0)
}

/// Keeps memory freed by one user change for the next, instead of handing it
/// back to the system at each free and faulting it in again (zeroed) on the
/// next allocation: the program gives it back itself, with
/// `releaseFreedMemory`, once work pauses.
///
/// glibc serves a large allocation (a snapshot of megabytes) from a mapping
/// of its own, unmapped when freed, and gives the heap's free top back as
/// soon as it passes a threshold that it raises as it goes. A returning
/// user's change holds several multi-megabyte texts at once (the cached
/// snapshot, the refreshed one, their notifications) and paid about 1,600
/// page faults a change at 20,000 content cards for it (`perf stat`), a
/// third of its system time. Up to 32 MiB (glibc's own upper bound for the
/// mapping threshold) an allocation now comes from the heap.
public func keepFreedMemoryUntilReleased() {
    _ = bunting_keep_freed_memory(32 << 20)
}
