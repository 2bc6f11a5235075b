import BuntingCore
import BuntingJSON
import BuntingJSONRPC
import BuntingRuntime

/// The methods that concern the server itself: `rpc.discover`, `status`, `shutdown`.
public enum ServerMethods {
    /// The OpenRPC document, embedded in the binary from `schemas/openrpc.json`
    /// so that a copied binary still describes itself.
    public static func openRPCDocument() -> JSON {
        do {
            return try JSON.parse(PackageResources.openrpc_json)
        } catch {
            // A build check (the OpenRPC test) keeps this from happening.
            log.error("the embedded OpenRPC document does not parse: \(error.description)")
            return .object([:])
        }
    }

    /// `rpc.discover` and `status`.
    static func discovery(_ context: ServerContext, status: @escaping () -> JSONObject) -> [Method] {
        let started = context.loop.clock.monotonicTime()
        // Parsed on first use: most sessions never ask, and it is 130 KB.
        var document: JSON?
        return [
            .immediate(RpcDiscoverParams.self) { _ in
                if let document { return document }
                let parsed = openRPCDocument()
                document = parsed
                return parsed
            },
            .immediate(StatusParams.self) { _ in
                var result: JSONObject = ["version": .string(BuntingVersion.current)]
                result["framing"] = context.framing.map { .string($0.rawValue) } ?? .null
                result["uptime"] = .real(context.loop.clock.monotonicTime() - started)
                result.merge(status())
                return .object(result)
            },
        ]
    }

    static func shutdown(_ context: ServerContext) -> Method {
        .deferred(ShutdownParams.self) { _, responder in
            responder.succeed(.object([:]))
            context.shutDown()
        }
    }
}
