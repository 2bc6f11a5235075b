import CRuntime
import Glibc

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

/// Where the whole pages inside `buffer` are, as offsets within it (nil
/// when none lies inside it): what `giveBackPages` can hand back of it.
public func wholePages(in buffer: UnsafeRawBufferPointer) -> Range<Int>? {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return nil }
    let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
    let start = UInt(bitPattern: base)
    let first = (start + page - 1) / page * page
    let last = (start + UInt(buffer.count)) / page * page
    guard first < last else { return nil }
    return Int(first - start)..<Int(last - start)
}

/// Hands the pages of `pages` (whole pages, as `wholePages` finds them)
/// back to the system (`madvise` `MADV_DONTNEED`): they stop counting in
/// the process's memory at once, and read as zeros from then on. For memory
/// the caller owns alone and will not read again (a document's text once
/// compiled). False when the system refused (nothing was given back).
public func giveBackPages(_ pages: UnsafeMutableRawBufferPointer) -> Bool {
    guard let base = pages.baseAddress, pages.count > 0 else { return false }
    return madvise(base, pages.count, MADV_DONTNEED) == 0
}
