import BuntingRuntime
import Dispatch
import Glibc
import Testing

/// Giving freed memory back is called from any thread that has just dropped
/// a large document: the loop, a loader, tests running side by side.
@Suite struct MemoryTests {
    /// glibc sets its allocator up on the first malloc_trim when nothing has
    /// allocated through it, which is the case under AddressSanitizer and
    /// ThreadSanitizer (they replace malloc); two first calls at once then
    /// read unlinked bins and crash (a C program under ThreadSanitizer with
    /// sixteen threads behind a barrier crashed in 128 of 200 runs without the
    /// shim's lock, 0 of 200 with it). Here it can fail only in a sanitized run
    /// whose first trims these are; a normal process allocated long before.
    @Test func manyThreadsGiveMemoryBackAtOnce() {
        let threads = 16
        let barrier = Barrier(count: threads)
        let done = DispatchGroup()
        for _ in 0..<threads {
            done.enter()
            startThread(name: "test-trim") {
                barrier.wait()
                releaseFreedMemory()
                done.leave()
            }
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
    }
}

/// Lets a number of threads go on together once all have arrived (one
/// futex wake for all, so that they run into the same call at once).
private final class Barrier: @unchecked Sendable {
    private let barrier = UnsafeMutablePointer<pthread_barrier_t>.allocate(capacity: 1)

    init(count: Int) { pthread_barrier_init(barrier, nil, UInt32(count)) }

    deinit {
        pthread_barrier_destroy(barrier)
        barrier.deallocate()
    }

    func wait() { pthread_barrier_wait(barrier) }
}
