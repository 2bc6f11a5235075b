import BuntingJSON
import Foundation
import Testing

/// GrowthBook experiments through the built binary, with storage on disk:
/// sticky arms that outlive a change of weights and a restart, and
/// exposures at the sink, once per user, experiment and variation a session,
/// a restart within the session included.
@Suite struct GrowthBookTests {
    /// A 50/50 (or other) checkout test and a feature without experiment.
    static func payload(weights: [Double]) -> String {
        """
        {"features": {
          "checkout-button": {"defaultValue": "blue", "rules": [{"key": "checkout-test", "variations": ["blue", "green"],
                              "weights": [\(weights[0]), \(weights[1])], "meta": [{"key": "control"}, {"key": "treatment"}]}]},
          "banner-text": {"defaultValue": "Welcome"}}}
        """
    }

    static let users = (0..<1_000).map { "user-\($0)" }

    /// Each user's arm: a changeUser and an evaluateFeature each, written at once.
    func arms(_ server: ServerProcess) throws -> [String: String] {
        var lines = ""
        for (index, user) in Self.users.enumerated() {
            lines += #"{"jsonrpc":"2.0","id":"u\#(index)","method":"changeUser","params":{"userId":"\#(user)"}}"# + "\n"
            lines +=
                #"{"jsonrpc":"2.0","id":"f\#(index)","method":"evaluateFeature","params":{"featureKey":"checkout-button"}}"#
                + "\n"
        }
        try server.sendRaw(lines)
        let last = "f\(Self.users.count - 1)"
        let replies = try server.waitUntil("every evaluation") { messages in
            messages.contains { $0["id"] == .string(last) }
        }
        var arms: [String: String] = [:]
        for reply in replies {
            guard let id = reply["id"]?.stringValue, id.hasPrefix("f"), let index = Int(id.dropFirst()) else {
                continue
            }
            arms[Self.users[index]] = reply["result"]?["experimentResult"]?["key"]?.stringValue
        }
        return arms
    }

    @Test func everyUserKeepsTheirArmWhenTheWeightsChangeAndTheServerRestarts() throws {
        let workspace = try StorageWorkspace()
        try Data(Self.payload(weights: [0.5, 0.5]).utf8).write(to: URL(fileURLWithPath: workspace.definitions))
        let first = try workspace.startServer(sink: false)
        let before = try arms(first)
        #expect(before.count == 1_000)
        let treated = before.values.filter { $0 == "treatment" }.count
        #expect(treated > 400 && treated < 600, "about half: \(treated)")
        try first.closeInput()
        #expect(try first.waitForExit() == 0)

        try Data(Self.payload(weights: [0.1, 0.9]).utf8).write(to: URL(fileURLWithPath: workspace.definitions))
        let restarted = try workspace.startServer(sink: false)
        let after = try arms(restarted)
        let moved = Self.users.filter { before[$0] != after[$0] }
        #expect(moved.isEmpty, "\(moved.count) users changed arms, e.g. \(moved.prefix(3))")
        try restarted.expectPromptStatusAndTermination()

        // Without the sticky documents, the new weights move users: the test can fail.
        let fresh = try StorageWorkspace()
        try Data(Self.payload(weights: [0.1, 0.9]).utf8).write(to: URL(fileURLWithPath: fresh.definitions))
        let unsticky = try fresh.startServer(sink: false)
        let reassigned = try arms(unsticky)
        #expect(Self.users.filter { before[$0] != reassigned[$0] }.count > 250)
        try unsticky.expectPromptStatusAndTermination()
    }

    @Test func exposuresReachTheSinkOncePerUserExperimentAndVariationASession() throws {
        let workspace = try StorageWorkspace()
        try Data(Self.payload(weights: [0.5, 0.5]).utf8).write(to: URL(fileURLWithPath: workspace.definitions))
        let server = try workspace.startServer()
        for user in ["ada", "bo", "cy"] {
            _ = try server.call("changeUser", ["userId": .string(user)])
            for _ in 0..<3 { _ = try server.call("evaluateFeature", ["featureKey": "checkout-button"]) }
            // A context given with the request is evaluated alone: no exposure.
            _ = try server.call(
                "evaluateFeature", ["featureKey": "checkout-button", "attributes": ["id": "someone-else"]])
        }
        _ = try server.call("flush")
        try server.closeInput()
        #expect(try server.waitForExit() == 0)

        // The same session after a restart: cy's exposure is not logged again; a new session logs it.
        let restarted = try workspace.startServer()
        _ = try restarted.call("evaluateFeature", ["featureKey": "checkout-button"])
        _ = try restarted.call("openSession")
        _ = try restarted.call("evaluateFeature", ["featureKey": "checkout-button"])
        _ = try restarted.call("flush")
        try restarted.expectPromptStatusAndTermination()

        let lines = try String(contentsOfFile: workspace.sink, encoding: .utf8).split(separator: "\n").map {
            try JSON.parse(String($0))
        }
        let exposures = lines.filter { $0["kind"] == "experiment_viewed" }
        #expect(exposures.compactMap { $0["userId"]?.stringValue } == ["ada", "bo", "cy", "cy"])
        #expect(
            exposures.allSatisfy {
                $0["experimentKey"] == "checkout-test" && $0["hashAttribute"] == "id"
                    && $0["featureId"] == "checkout-button"
            })
        #expect(
            exposures.allSatisfy {
                $0["hashValue"] == $0["userId"] && $0["variationKey"]?.stringValue != nil && $0["sessionId"] != nil
            })
        #expect(Set(exposures.compactMap { $0["eventId"]?.stringValue }).count == 4)
    }

    /// An exposure told ENQUEUED is stored: a server killed before any sink
    /// took it delivers it after the restart, once.
    @Test func anEnqueuedExposureSurvivesSIGKILLAndIsDeliveredOnce() throws {
        let workspace = try StorageWorkspace()
        try Data(Self.payload(weights: [0.5, 0.5]).utf8).write(to: URL(fileURLWithPath: workspace.definitions))
        let first = try workspace.startServer(sink: false)
        _ = try first.call("subscribe", ["channel": "featureFlags"])
        _ = try first.call("changeUser", ["userId": "dee"])
        let result = try first.call("evaluateFeature", ["featureKey": "checkout-button"])["result"]
        let variation = try #require(result?["experimentResult"]?["key"]?.stringValue)
        let enqueued = try first.waitForEvent("EXPOSURE", "featureFlags") { $0["action"] == "ENQUEUED" }
        let eventId = try #require(enqueued["eventId"]?.stringValue)
        first.killHard()

        let restarted = try workspace.startServer()
        _ = try restarted.call("flush")
        try restarted.expectPromptStatusAndTermination()
        let lines = try String(contentsOfFile: workspace.sink, encoding: .utf8).split(separator: "\n").map {
            try JSON.parse(String($0))
        }
        let exposures = lines.filter { $0["kind"] == "experiment_viewed" }
        #expect(exposures.compactMap { $0["eventId"]?.stringValue } == [eventId], "delivered once, after the restart")
        #expect(exposures.first?["userId"] == "dee")
        #expect(exposures.first?["variationKey"]?.stringValue == variation)
    }

    /// An encrypted payload is decrypted by the served binary with its key;
    /// libcrypto, loaded on first use rather than linked, is mapped only by
    /// a process that decrypted something.
    @Test func anEncryptedPayloadIsServedAndOnlyItsServerLoadsLibcrypto() throws {
        func mapsLibcrypto(_ server: ServerProcess) throws -> Bool {
            // Read to its end: /proc files say they are empty, and a sanitized
            // process's map is long (a reader that trusts the size stops early).
            let maps = try FileHandle(
                forReadingFrom: URL(fileURLWithPath: "/proc/\(server.process.processIdentifier)/maps"))
            defer { try? maps.close() }
            let text = String(decoding: try maps.readToEnd() ?? Data(), as: UTF8.self)
            #expect(text.contains("/bunting"), "the server's own map was read")
            return text.contains("libcrypto")
        }
        let plain = try StorageWorkspace()
        let unencrypted = try plain.startServer(sink: false)
        _ = try unencrypted.call("status")
        #expect(try !mapsLibcrypto(unencrypted))
        try unencrypted.expectPromptStatusAndTermination()

        // The encrypted payload of the unit tests (GrowthBookDocumentTests), with its key.
        let workspace = try StorageWorkspace()
        let payload = """
            {"features": {}, "encryptedFeatures": "tDwPJBDcPEPF/NjfJ23Asw==.SSumD9SPzruyAJTkHCRAVkOLc0rW5EC78cOp8xpAePgzjvN0fHPEXrIEPHzxuf6sf6l0tLvEkB+DlSTQebEkPSYcH4iumgFPXFSTqq3DBvKQAXvg/T4gugnKEp0UxuTVbQjqBDCkVKpRRJUMAMJZRg=="}
            """
        try Data(payload.utf8).write(to: URL(fileURLWithPath: workspace.definitions))
        let server = try workspace.startServer(sink: false, ["--decryption-key", "BouFvhNODCt2XtwVr5IV4w=="])
        _ = try server.call("changeUser", ["userId": "ada", "attributes": ["country": "FR"]])
        let greeting = try server.call("evaluateFeature", ["featureKey": "greeting"])
        #expect(greeting["result"]?["value"] == "bonjour", "\(greeting)")
        #expect(try mapsLibcrypto(server))
        try server.expectPromptStatusAndTermination()
    }
}
