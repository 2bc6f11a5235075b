import BuntingCore
import BuntingJSON
import BuntingJSONRPC
import BuntingRuntime

/// The methods for testing campaigns: a clock a script moves (`setClock`,
/// `advanceClock`, with `serve --clock manual`) and failures on demand
/// (`injectFault`, `clearFaults`, with `serve --faults`). Declared on every
/// server, so that the OpenRPC document describes one table; a server
/// started without the option answers NOT_ENABLED.
enum TestingMethods {
    static func methods(_ testing: TestingControls) -> [Method] {
        [
            .immediate(SetClockParams.self) { params throws(RPCError) in
                let time = try manualTime(testing, SetClockParams.method)
                time.set(to: try unixTime(params.time, field: "time"))
                return .object(clockResult(time.now))
            },
            // Deferred, so that the events of the timers it runs come before its reply.
            .deferred(AdvanceClockParams.self) { params, responder throws(RPCError) in
                let time = try manualTime(testing, AdvanceClockParams.method)
                guard params.seconds.isFinite, params.seconds >= 0, params.seconds <= ManualTime.maxAdvance else {
                    throw .invalidParams(
                        field: "seconds",
                        "must be a number of seconds from 0 to "
                            + "\(Int(ManualTime.maxAdvance)), not \(params.seconds)")
                }
                let advance = time.advance(by: params.seconds)
                var result = clockResult(advance.time)
                result["steps"] = .int(advance.steps)
                result["coalesced"] = .bool(advance.coalesced)
                responder.succeedAfterItsNotifications(.object(result))
            },
            .immediate(InjectFaultParams.self) { params throws(RPCError) in
                let faults = try faultBoard(testing, InjectFaultParams.method)
                if params.target == .sink && !testing.hasSink {
                    throw RPCError(
                        code: .notAllowed, reason: "NOT_ALLOWED",
                        message: "Not allowed: target: this server has no sink (--sink)",
                        details: [
                            "field": "target",
                            "why": "this server has no sink (--sink): nothing would be delivered to fail",
                        ])
                }
                let times = params.times ?? 1
                guard (1...Self.maxTimes).contains(times) else {
                    throw .invalidParams(
                        field: "times", "must be a whole number from 1 to \(Self.maxTimes), not \(times)")
                }
                faults.arm(params.target, times: Int(times), response: try faultResponse(params.response))
                return .object(["faults": faults.json])
            },
            .immediate(ClearFaultsParams.self) { params throws(RPCError) in
                let faults = try faultBoard(testing, ClearFaultsParams.method)
                faults.clear(params.target)
                return .object(["faults": faults.json])
            },
        ]
    }

    static let maxTimes: Int64 = 1_000_000

    private static func manualTime(_ testing: TestingControls, _ method: String) throws(RPCError) -> ManualTime {
        guard let time = testing.time else { throw .notEnabled(method, needs: "--clock manual") }
        return time
    }

    private static func faultBoard(_ testing: TestingControls, _ method: String) throws(RPCError) -> FaultBoard {
        guard let faults = testing.faults else { throw .notEnabled(method, needs: "--faults") }
        return faults
    }

    private static func clockResult(_ time: Double) -> JSONObject {
        ["time": .number(time), "date": .string(UnixTime.rfc3339(time))]
    }

    /// Unix seconds (a number or its text) or an RFC 3339 date-time.
    static func unixTime(_ value: JSON, field: String) throws(RPCError) -> Double {
        let parsed: Double?
        switch value {
        case .integer, .real:
            parsed = value.doubleValue.flatMap {
                $0.isFinite && $0 >= UnixTime.earliest && $0 <= UnixTime.latest ? $0 : nil
            }
        case .string(let text): parsed = UnixTime.parse(text)
        default: parsed = nil
        }
        guard let parsed else {
            throw .invalidParams(field: field, "must be \(UnixTime.expected), not \(value.encodedString())")
        }
        return parsed
    }

    /// `"timeout" | "disconnect" | "invalidData" | {status, headers?, body?}`.
    static func faultResponse(_ value: JSON) throws(RPCError) -> FaultResponse {
        switch value {
        case "timeout": return .timeout
        case "disconnect": return .disconnect
        case "invalidData": return .invalidData
        case .object(let object):
            if let unknown = object.keys.first(where: { !["status", "headers", "body"].contains($0) }) {
                throw .invalidParams(
                    field: "response", "has no member \(unknown.debugDescription) (status, headers, body)")
            }
            guard let status = object["status"]?.integerValue, (100...599).contains(status) else {
                throw .invalidParams(field: "response", "status must be an HTTP status from 100 to 599")
            }
            var headers: [String: String] = [:]
            for (name, header) in object["headers"]?.objectValue ?? [:] {
                guard let text = header.stringValue else {
                    throw .invalidParams(field: "response", "the header \(name.debugDescription) must be a string")
                }
                headers[name] = text
            }
            if let given = object["headers"], given.objectValue == nil {
                throw .invalidParams(field: "response", "headers must be an object of strings")
            }
            let body: [UInt8]
            switch object["body"] {
            case nil, .null?: body = []
            case .string(let text)?: body = Array(text.utf8)
            case let other?: body = other.encoded()
            }
            return .http(status: Int(status), headers: headers, body: body)
        default:
            throw .invalidParams(
                field: "response",
                "must be \"timeout\", \"disconnect\", \"invalidData\" or {status, headers?, body?}")
        }
    }
}
