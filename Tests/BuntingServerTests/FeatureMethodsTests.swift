import BuntingCore
import BuntingJSON
import Testing

/// GrowthBook features over the protocol, in process: exposures on the
/// durable path once per user, experiment and variation a session, none for
/// a context given with the request; features listed in the featureFlags channel.
@Suite struct FeatureMethodsTests {
    static let payload = """
        {"features": {
          "checkout-button": {"defaultValue": "blue", "rules": [{"key": "checkout-test", "variations": ["blue", "green"],
                              "weights": [0.5, 0.5], "meta": [{"key": "control"}, {"key": "treatment"}]}]},
          "forced": {"defaultValue": 1, "rules": [{"key": "forced-test", "variations": [1, 2], "force": 2}]},
          "banner-text": {"defaultValue": {"text": "Welcome"}}}}
        """

    func exposures(_ server: InProcessServer, from index: Int = 0) -> [JSON] {
        server.received.dropFirst(index).compactMap { $0["params"] }.filter {
            $0["type"] == "EXPOSURE" && $0["action"] == "ENQUEUED"
        }
    }

    @Test func theCurrentUsersEvaluationLogsEachExposureOnceASession() {
        let server = InProcessServer(definitions: Self.payload)
        server.request("subscribe", params: ["channel": "featureFlags"])
        server.request("changeUser", params: ["userId": "ada"])
        let first = server.request("evaluateFeature", params: ["featureKey": "checkout-button"])
        #expect(first["result"]?["source"] == "experiment")
        #expect(exposures(server).count == 1)
        #expect(exposures(server).first?["exposure"]?["hashValue"] == "ada")
        server.request("evaluateFeature", params: ["featureKey": "checkout-button"])
        server.request("evaluateFeatures", params: [:])
        #expect(exposures(server).count == 1, "once a session")
        // A context given with the request: evaluated alone, nothing logged.
        let other = server.request(
            "evaluateFeature", params: ["featureKey": "checkout-button", "attributes": ["id": "bo"]])
        #expect(other["result"]?["experimentResult"]?["hashValue"] == "bo")
        #expect(exposures(server).count == 1)
        // A new session logs it again; a forced variation never is an exposure.
        server.request("openSession")
        server.request("evaluateFeatures", params: [:])
        #expect(exposures(server).count == 2)
        #expect(exposures(server).allSatisfy { $0["exposure"]?["experimentKey"] == "checkout-test" })
        server.closeInput()
        #expect(server.sink.accepted.filter { $0.kind == .experimentViewed }.count == 2)
    }

    @Test func anImpressionOfAFeaturesFlagIsItsExposure() {
        let server = InProcessServer(definitions: Self.payload)
        server.request("subscribe", params: ["channel": "featureFlags"])
        server.request("changeUser", params: ["userId": "ada"])
        let flags =
            server.request("getSnapshot", params: ["channel": "featureFlags"])["result"]?["featureFlags"]?.arrayValue
            ?? []
        #expect(flags.compactMap { $0["id"]?.stringValue } == ["checkout-button", "forced", "banner-text"])
        #expect(flags.first?["metadata"]?["experiment"]?["experimentKey"] == "checkout-test")
        #expect(exposures(server).isEmpty, "listing the features logs nothing")
        server.request(
            "logImpression", params: ["channel": "featureFlags", "ids": ["checkout-button", "banner-text"]])
        #expect(server.eventSummaries().filter { $0.hasPrefix("IMPRESSION") }.count == 2)
        #expect(exposures(server).count == 1)
    }

    /// A document without features has no feature of any key: each asked
    /// for answers as unknown, as in a document with features.
    @Test func aDocumentWithoutFeaturesAnswersEveryKeyAsUnknown() {
        let server = InProcessServer(definitions: #"{"flags": {}}"#)
        server.request("changeUser", params: ["userId": "ada"])
        for attributes: JSON? in [nil, ["id": "bo"]] {
            var params: JSONObject = ["featureKey": "missing"]
            params["attributes"] = attributes
            let result = server.request("evaluateFeature", params: .object(params))["result"]
            #expect(result?["source"] == "unknownFeature", "\(String(describing: attributes))")
            #expect(result?["value"] == .null)
            var many: JSONObject = ["featureKeys": ["missing"]]
            many["attributes"] = attributes
            let features = server.request("evaluateFeatures", params: .object(many))["result"]?["features"]
            #expect(features?["missing"]?["source"] == "unknownFeature")
        }
        #expect(server.request("evaluateFeatures", params: [:])["result"]?["features"] == .object([:]))
    }

    @Test func whileTheSDKIsOffOnlyAGivenContextIsEvaluated() {
        let server = InProcessServer(definitions: Self.payload)
        server.request("changeUser", params: ["userId": "ada"])
        server.request("disableSDK")
        #expect(
            server.request("evaluateFeature", params: ["featureKey": "forced"])["error"]?["data"]?["reason"]
                == "SDK_DISABLED")
        #expect(
            server.request("evaluateFeature", params: ["featureKey": "forced", "attributes": [:]])["result"]?["value"]
                == 2)
    }

    @Test func conditionsAnswerAndAnUnreadableOneIsAnInvalidRule() {
        let server = InProcessServer(definitions: Self.payload)
        let yes = server.request(
            "evaluateCondition",
            params: ["condition": ["version": ["$vgte": "1.2.0"]], "attributes": ["version": "1.10.0"]])
        #expect(yes["result"] == ["result": true])
        let long = server.request(
            "evaluateCondition",
            params: [
                "condition": ["name": ["$regex": .string(String(repeating: "a", count: 2_000))]], "attributes": [:],
            ])
        #expect(long["error"]?["data"]?["reason"] == "INVALID_RULE" && long["error"]?["data"]?["field"] == "condition")
    }
}
