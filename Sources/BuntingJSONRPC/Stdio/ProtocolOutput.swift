#if canImport(Glibc)
import Glibc
#endif
import BuntingRuntime

/// The descriptor the protocol is written to, made writable without ever
/// blocking the event loop.
///
/// O_NONBLOCK cannot simply be set on stdout: the flag belongs to the open
/// file description, which the parent process shares (its terminal, its end
/// of a pipe), and would change under it. So a pipe, FIFO or terminal is
/// opened anew through /proc/self/fd — a description of Bunting's own, set
/// non-blocking; a socket (Node's child processes get socket pairs) is
/// written with MSG_DONTWAIT; a regular file never blocks for long and is
/// written as it is. Where none of that works, writes are cut to PIPE_BUF
/// bytes and made only when poll reports room, which cannot block either.
struct ProtocolOutput {
    enum Mode {
        case nonBlocking
        case socket
        case regularFile
        /// At most `PIPE_BUF` bytes per write, each after poll said there is room.
        case smallWrites
    }

    let fd: Int32
    let mode: Mode
    /// The pipe buffer asked for when the protocol goes out through a pipe.
    static let pipeBytes = 1 << 20

    init(_ original: Int32) {
        var info = stat()
        guard fstat(original, &info) == 0 else {
            fd = original
            mode = .smallWrites
            return
        }
        let type = info.st_mode & S_IFMT
        // A snapshot of thousands of items is megabytes: through the default
        // 64 KB pipe it goes in as many hand-offs to the reader.
        if type == S_IFIFO { FileDescriptorIO.growPipe(original, to: Self.pipeBytes) }
        if type == S_IFSOCK {
            fd = original
            mode = .socket
        } else if type == S_IFREG {
            fd = original
            mode = .regularFile
        } else if fcntl(original, F_GETFL) & O_NONBLOCK != 0 {
            fd = original
            mode = .nonBlocking
        } else {
            let reopened = open("/proc/self/fd/\(original)", O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            if reopened >= 0 {
                fd = reopened
                mode = .nonBlocking
            } else {
                fd = original
                mode = .smallWrites
            }
        }
    }

    /// Writes what it can of `count` bytes without blocking: the number
    /// written, 0 when there is no room now, or nil when the descriptor failed.
    func write(_ base: UnsafeRawPointer, _ count: Int) -> Int? {
        let size = mode == .smallWrites ? min(count, Int(PIPE_BUF)) : count
        switch FileDescriptorIO.writeSome(fd, UnsafeRawBufferPointer(start: base, count: size), socket: mode == .socket)
        {
        case .transferred(let written): return written
        case .wouldBlock, .end: return 0
        case .failed: return nil
        }
    }

    /// Whether a write may go on after a partial one without asking poll first.
    var writesUntilFull: Bool { mode != .smallWrites }
}
