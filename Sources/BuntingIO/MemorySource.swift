import BuntingCore

/// Definitions held in memory: the example built into the binary, which
/// `bunting serve` uses when no `--definitions` is given. Never changes.
public final class MemorySource: DefinitionsSource {
    public let location: String
    public var isLocal: Bool { true }
    private let bytes: [UInt8]

    public init(bytes: [UInt8], location: String) {
        self.bytes = bytes
        self.location = location
    }

    public func fetch(ifChangedSince version: SourceVersion?) -> SourceFetchResult {
        if version?.fingerprint == "memory" { return .unchanged }
        return .fetched(bytes, SourceVersion(fingerprint: "memory"))
    }
}
