import BuntingCore
import BuntingJSON
import Foundation
import Testing

/// The analytics guarantee under real crashes: the server is killed with
/// SIGKILL at random moments — while events arrive, while the sink is
/// failing, right after it recovered, in the middle of a flush — and
/// restarted on the same storage each time. At the end every event the
/// server reported ENQUEUED must be in the sink file exactly once.
@Suite struct CrashTests {
    /// Kills per run; each round is one server process, so this is also the
    /// number of restarts (the test takes about 10 s in a debug build).
    static let rounds = 150

    @Test func everyEnqueuedEventReachesTheSinkExactlyOnceThroughRandomKills() throws {
        signal(SIGPIPE, SIG_IGN) // requests may still be on their way to a server just killed
        let seed = UInt64.random(in: 1...UInt64.max)
        var random = SplitMix64(seed: seed)
        let workspace = try StorageWorkspace()
        // Frequent flushes and quick retries, so kills land in every phase.
        let options = ["--flush-interval", "0.02", "--retry-initial-delay", "0.01", "--retry-max-delay", "0.05"]
        var enqueued: Set<String> = []
        var stats = (whileFailing: 0, afterRecovery: 0, rightAfterFlushed: 0, resent: 0)
        var sinkSoFar = StorageWorkspace.SinkReader()
        let started = Date()

        for round in 0..<Self.rounds {
            try sinkSoFar.readNewLines(of: workspace)
            let alreadyAtSink = Set(sinkSoFar.ids)
            var failing = round < 3 || Bool.random(using: &random)
            try workspace.setSinkFailing(failing)
            let server = try workspace.startServer(options)
            _ = try server.call("subscribe", ["channel": "contentCards"])
            _ = try server.call("subscribe", ["channel": "banners"])
            if round == 0 {
                _ = try server.call("changeUser", ["userId": "alice"])
                try server.waitForEvent("DATA_UPDATED", "contentCards")
                try server.waitForEvent("DATA_UPDATED", "banners")
            } else {
                // The stored cache is replayed, so the items can be logged at once.
                let replay = try server.waitForEvent("CACHE_REPLAY", "contentCards")
                #expect(replay["cacheSnapshot"]?["contentCards"]?["cards"]?.arrayValue?.count == 2, "seed \(seed)")
            }
            if !failing && Bool.random(using: &random) {
                // Send what the last round left. The FLUSHED events of ids the
                // sink already held show an earlier kill between the sink's
                // write and the removal from the queue: sent again, skipped there.
                let flushed = Int(try server.call("flush")["result"]?["flushed"]?.integerValue ?? 0)
                try waitUntil("\(flushed) FLUSHED, seed \(seed)") {
                    server.eventIds("FLUSHED").count >= flushed
                } // they follow the reply
                stats.resent += Set(server.eventIds("FLUSHED")).intersection(alreadyAtSink).count
            }
            try server.sendRaw(Self.burst(of: Int.random(in: 10...120, using: &random), using: &random))

            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                // Anywhere: while requests are read, events stored, batches sent.
                usleep(UInt32.random(in: 0...80_000, using: &random))
            case 1 where failing:
                // The sink comes back while events wait; kill once it is flushing.
                usleep(UInt32.random(in: 0...30_000, using: &random))
                try workspace.setSinkFailing(false)
                failing = false
                stats.afterRecovery += 1
                usleep(UInt32.random(in: 0...40_000, using: &random))
            case 2 where !failing:
                // Right after the sink accepted a batch: the next one is likely on its way.
                try server.waitForEvent("IMPRESSION", "contentCards") { $0["action"] == "FLUSHED" }
                usleep(UInt32.random(in: 0...2_000, using: &random))
                stats.rightAfterFlushed += 1
            default:
                // After the n-th event was stored.
                let count = Int.random(in: 1...10, using: &random)
                try waitUntil("\(count) ENQUEUED, seed \(seed)") { server.eventIds("ENQUEUED").count >= count }
            }
            server.killHard()
            if failing { stats.whileFailing += 1 }
            enqueued.formUnion(server.eventIds("ENQUEUED"))
        }

        try workspace.setSinkFailing(false)
        let last = try workspace.startServer(options)
        let flush = try last.call("flush")
        #expect(flush["result"]?["pending"] == 0, "seed \(seed)")
        #expect(try last.shutDown() == 0)

        let sink = try workspace.sinkContents()
        let delivered = Set(sink.ids)
        #expect(
            delivered.count == sink.ids.count,
            "\(sink.ids.count - delivered.count) events were delivered twice (seed \(seed))")
        let missing = enqueued.subtracting(delivered)
        #expect(
            missing.isEmpty,
            "\(missing.count) of \(enqueued.count) enqueued events never reached the sink (seed \(seed))")
        #expect(enqueued.count > Self.rounds * 5)
        print(
            """
            CrashTests: \(Self.rounds) kills (\(stats.whileFailing) with the sink failing, \(stats.afterRecovery) just after \
            it recovered, \(stats.rightAfterFlushed) right after a FLUSHED), \(enqueued.count) events enqueued, \
            \(sink.ids.count) delivered once each (\(sink.ids.count - enqueued.count) stored but killed before their ENQUEUED \
            was written), \(stats.resent) seen re-sent after a kill between the sink's write and the removal, \
            \(sink.tornLines) lines torn mid-write; \(Int(Date().timeIntervalSince(started))) s, seed \(seed)
            """)
    }

    /// `count` requests in one write: impressions of one or both cards and of
    /// the banner, and clicks on a card.
    static func burst(of count: Int, using random: inout SplitMix64) -> [UInt8] {
        var bytes: [UInt8] = []
        for index in 0..<count {
            let params: JSON =
                switch Int.random(in: 0..<4, using: &random) {
                case 0: ["channel": "contentCards", "ids": ["c1", "c2"]]
                case 1: ["channel": "contentCards", "id": "c2"]
                case 2: ["channel": "banners", "id": "top"]
                default: ["channel": "contentCards", "id": "c1"]
                }
            let method = index % 7 == 6 ? "logClick" : "logImpression"
            let request: JSON = ["jsonrpc": "2.0", "id": .int(index), "method": .string(method), "params": params]
            bytes += request.encoded() + [UInt8(ascii: "\n")]
        }
        return bytes
    }
}

/// Waits for `condition` with the suite's deadline: an event that never
/// comes fails the test instead of hanging the run.
func waitUntil(_ what: String, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(ServerProcess.deadline)
    while !condition() {
        guard Date() < deadline else { throw HarnessError(description: "gave up waiting for \(what)") }
        usleep(200)
    }
}
