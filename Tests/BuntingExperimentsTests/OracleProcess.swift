import Foundation

/// Runs an oracle as a child process: stdin from a file, stdout drained on
/// another thread while the child runs (a child writing more than a pipe
/// holds would otherwise block forever), stderr kept for error reports.
final class OracleProcess: @unchecked Sendable {
    // Written by the reader threads before `done` is signalled, read after.
    private var output = Data()
    private var errors = Data()
    private let done = DispatchGroup()
    private let process = Process()

    /// Starts `executable arguments…` with `input` as its stdin.
    init(executable: URL, arguments: [String], input: URL) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: input)
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        for (pipe, isOutput) in [(stdout, true), (stderr, false)] {
            done.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                if isOutput { self.output = data } else { self.errors = data }
                self.done.leave()
            }
        }
    }

    /// Waits for the child; returns its stdout lines, or throws with its stderr.
    func finish() throws -> [Substring] {
        done.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw OracleFailure(status: process.terminationStatus, stderr: String(decoding: errors, as: UTF8.self))
        }
        return String(decoding: output, as: UTF8.self).split(separator: "\n")
    }

    struct OracleFailure: Error, CustomStringConvertible {
        let status: Int32
        let stderr: String
        var description: String { "oracle exited with status \(status):\n\(stderr.suffix(3000))" }
    }

    /// Writes `lines` (one JSON value each) to a temporary file for a child's stdin.
    static func inputFile(_ lines: [String]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bunting-oracle-\(UUID().uuidString).ndjson")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        return url
    }
}

/// SplitMix64: a small, fast generator whose sequence depends only on the
/// seed, so that generated test data is the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int.random(in: 0..<choices.count, using: &self)]
    }
}
