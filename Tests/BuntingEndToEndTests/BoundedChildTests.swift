import Foundation
import Testing

/// The harness's deadlines on its children hold: a child that never ends
/// is killed and the wait fails, instead of holding the run.
@Suite struct BoundedChildTests {
    private func sleeper(output: Pipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["30"]
        process.standardInput = FileHandle.nullDevice
        if let output { process.standardOutput = output }
        try process.run()
        return process
    }

    @Test func aWaitForAChildThatDoesNotEndThrowsAndTheChildIsGone() throws {
        let process = try sleeper()
        let started = Date()
        #expect(throws: HarnessError.self) { try process.waitForExit(within: 0.2, "sleep 30") }
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(!process.isRunning)
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
    }

    @Test func aReadOfAChildsOutputEndsAtItsDeadlineAndSettlingSaysSo() throws {
        let output = Pipe()
        let process = try sleeper(output: output)
        let deadline = ChildDeadline(process, seconds: 0.2)
        // sleep writes nothing: the read returns only once the kill closes the pipe.
        #expect(output.fileHandleForReading.readDataToEndOfFile().isEmpty)
        #expect(throws: HarnessError.self) { try deadline.waitForExit("sleep 30") }
        #expect(!process.isRunning && process.terminationStatus == SIGKILL)
    }

    @Test func aChildThatEndsInTimeIsLeftAlone() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        let deadline = ChildDeadline(process, seconds: 30)
        try deadline.waitForExit("true")
        #expect(process.terminationStatus == 0)
    }
}
