import Foundation

/// Runs a Python oracle as a child process with stdin from a file, its
/// stdout drained on another thread while it runs (a child writing more
/// than a pipe holds would otherwise block), its stderr kept for reports.
final class OracleProcess: @unchecked Sendable {
    // Written by the reader threads before `done` is signalled, read after.
    private var output = Data()
    private var errors = Data()
    private let done = DispatchGroup()
    private let process = Process()

    init(python: URL, script: URL, input: URL, environment: [String: String] = [:]) throws {
        process.executableURL = python
        process.arguments = [script.path]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
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
}
