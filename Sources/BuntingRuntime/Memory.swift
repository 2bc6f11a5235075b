import CRuntime

/// Gives memory that the allocator keeps after large frees back to the
/// system. Loading a large document parses it twice over (jansson's tree,
/// then Swift's) before compiling it; without this the process would stay
/// at its peak size.
public func releaseFreedMemory() {
    _ = bunting_malloc_trim(0)
}
