import BuntingCore
import BuntingJSON
import Testing

/// What `status` says of the definitions.
@Suite struct DefinitionsStatusTests {
    @Test func aLoadedDocumentIsLoadedWithItsTime() {
        let harness = EngineHarness(testDocument)
        let status = harness.engine.status()["definitions"]
        #expect(status?["loaded"] == true && status?["loadedAt"] != nil && status?["lastError"] == nil)
    }

    /// A document served on its note's word whose full load then refused
    /// it serves nothing: `status` says it is not loaded, and why, rather
    /// than loaded with no problems.
    @Test func aDocumentRefusedByItsFullLoadIsNotLoaded() {
        let harness = EngineHarness(document { $0["refusedOnFullLoad"] = "/banners: must be an array" })
        let status = harness.engine.status()["definitions"]
        #expect(status?["loaded"] == false)
        #expect(status?["loadedAt"] == nil)
        #expect(status?["lastError"] == "/banners: must be an array")
    }
}
