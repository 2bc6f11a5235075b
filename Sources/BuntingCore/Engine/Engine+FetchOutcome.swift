import BuntingJSON

/// Reading the source and compiling what it gives: one step, run off the
/// loop (by the `DefinitionsFetcher`, or by the command line before serving).
extension Engine {
    /// What one fetch came back with, after compiling on the worker.
    public enum FetchOutcome: Sendable {
        case loaded(any CompiledDefinitions, SourceVersion, digest: UInt64)
        /// New bytes, but the same document as the one in use.
        case sameContent(SourceVersion)
        case unchanged
        /// A document that was refused, its version at the source and the digest of its bytes.
        case invalid(DefinitionsError, SourceVersion?, digest: UInt64?)
        case failed(SourceError)

        /// What makes the document unusable, when it is.
        public var problem: String? {
            switch self {
            case .loaded, .sameContent, .unchanged: nil
            case .invalid(let error, _, _): error.description
            case .failed(let failure): failure.message
            }
        }
    }

    /// Runs on the worker: fetch, then compile unless the bytes are the ones
    /// in use (`currentDigest`), or the ones last refused (`refusedDigest`:
    /// nothing new, and nothing to report again).
    public static func fetchAndCompile(
        source: any DefinitionsSource, since: SourceVersion?, currentDigest: UInt64? = nil,
        refusedDigest: UInt64? = nil,
        compile: DefinitionsCompiler
    ) -> FetchOutcome {
        switch source.fetch(ifChangedSince: since) {
        case .unchanged:
            return .unchanged
        case .failed(.invalidData(let message)):
            // Like a document that does not compile: a poll reports it once.
            return .invalid(DefinitionsError(problems: [message]), nil, digest: nil)
        case .failed(let failure):
            return .failed(failure)
        case .fetched(let bytes, let version):
            return compileFetched(
                consume bytes, version: version, currentDigest: currentDigest, refusedDigest: refusedDigest,
                compile: compile)
        }
    }

    /// Runs on the worker: compiles what a fetch brought (or a stream
    /// pushed), unless its bytes are the ones in use or last refused.
    public static func compileFetched(
        _ bytes: consuming [UInt8], version: SourceVersion, currentDigest: UInt64? = nil, refusedDigest: UInt64? = nil,
        compile: DefinitionsCompiler
    ) -> FetchOutcome {
        let digest = fnv1a64(bytes)
        if digest == currentDigest { return .sameContent(version) }
        if digest == refusedDigest { return .unchanged }
        // The text is given to the compiler: nothing here reads it again.
        switch compile(consume bytes) {
        case .success(let compiled): return .loaded(compiled, version, digest: digest)
        case .failure(let error): return .invalid(error, version, digest: digest)
        }
    }
}
