#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import BuntingRuntime

/// The one door to POSIX reads and writes says what each call did, on a real pipe.
struct FileDescriptorIOTests {
    @Test func aPipeWithoutBlockingReadsWritesWaitsAndEnds() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        let (reader, writer) = (ends[0], ends[1])
        defer { close(reader) }
        var buffer = [UInt8](repeating: 0, count: 16)

        #expect(buffer.withUnsafeMutableBytes { FileDescriptorIO.readSome(reader, into: $0) } == .wouldBlock)
        #expect(FileDescriptorIO.writeAll(writer, "hello") == nil)
        #expect(FileDescriptorIO.waitUntilWritable(writer, seconds: 0))
        #expect(buffer.withUnsafeMutableBytes { FileDescriptorIO.readSome(reader, into: $0) } == .transferred(5))
        #expect(Array(buffer[..<5]) == Array("hello".utf8))

        // A full pipe takes nothing more without blocking.
        let block = [UInt8](repeating: 1, count: 1 << 16)
        var outcome = TransferOutcome.transferred(0)
        while case .transferred = outcome {
            outcome = block.withUnsafeBytes { FileDescriptorIO.writeSome(writer, $0) }
        }
        #expect(outcome == .wouldBlock)
        close(writer)
        var drained = 0
        while case .transferred(let count) = buffer.withUnsafeMutableBytes({
            FileDescriptorIO.readSome(reader, into: $0)
        }) {
            drained += count
        }
        #expect(drained > 0)
        #expect(buffer.withUnsafeMutableBytes { FileDescriptorIO.readSome(reader, into: $0) } == .end)
    }

    /// The protocol's pipe is grown so that a large snapshot takes fewer
    /// hand-offs; what is not a pipe is left alone.
    @Test func aPipeGrowsToTheSizeAskedForAndAFileIsNotAPipe() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        let before = fcntl(ends[1], 1032 /* F_GETPIPE_SZ */)
        let granted = try #require(FileDescriptorIO.growPipe(ends[1], to: 1 << 20))
        #expect(granted > before, "the pipe grew from \(before) bytes")
        #expect(fcntl(ends[1], 1032) == Int32(granted), "the kernel reports the size given")
        // Filled without blocking up to the new size, past the old one.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        let block = [UInt8](repeating: 1, count: granted)
        #expect(block.withUnsafeBytes { FileDescriptorIO.writeSome(ends[1], $0) } == .transferred(granted))

        let file = open("/dev/null", O_WRONLY)
        defer { close(file) }
        #expect(FileDescriptorIO.growPipe(file, to: 1 << 20) == nil)
    }

    @Test func aClosedDescriptorFailsWithItsErrno() {
        var buffer = [UInt8](repeating: 0, count: 4)
        let outcome = buffer.withUnsafeMutableBytes { FileDescriptorIO.readSome(-1, into: $0) }
        guard case .failed(let error) = outcome else {
            Issue.record("read of -1 gave \(outcome)")
            return
        }
        #expect(error.errno == EBADF)
        #expect(FileDescriptorIO.writeAll(-1, "x")?.errno == EBADF)
    }

    @Test func readAllRefusesPastItsLimitAndReadRegularFileRefusesAPipe() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        #expect(FileDescriptorIO.writeAll(ends[1], String(repeating: "x", count: 100)) == nil)
        close(ends[1])
        guard case .failure(let error) = FileDescriptorIO.readAll(ends[0], limit: 10, name: "the pipe") else {
            Issue.record("100 bytes read under a limit of 10")
            return
        }
        #expect(error.errno == EFBIG)
        guard case .failure(let notRegular) = FileDescriptorIO.readRegularFile("/dev/null", limit: 10) else {
            Issue.record("/dev/null read as a regular file")
            return
        }
        #expect(notRegular.message.contains("not a regular file"))
    }
}
