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
