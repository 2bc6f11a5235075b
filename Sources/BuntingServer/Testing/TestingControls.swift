import BuntingCore
import BuntingJSON
import BuntingRuntime

/// What a server started for testing campaigns gives a script: a clock it
/// moves (`serve --clock manual`) and failures it injects (`serve --faults`).
/// A server started without them has neither, and the methods that use
/// them refuse (`NOT_ENABLED`), so that no production server's clock can be
/// moved or its source made to fail.
public struct TestingControls {
    /// The manual clock; nil on the system clock.
    public var time: ManualTime?
    /// Where injected failures are armed; nil without `--faults`.
    public var faults: FaultBoard?
    /// Whether the server has a sink (`--sink`) that sink failures can stand in for.
    public var hasSink: Bool

    public init(time: ManualTime? = nil, faults: FaultBoard? = nil, hasSink: Bool = true) {
        self.time = time
        self.faults = faults
        self.hasSink = hasSink
    }

    /// Neither: a server as it runs in production.
    public static var none: TestingControls { TestingControls() }

    /// What `status` adds: `clock` on a manual clock, `faults` with `--faults`.
    var status: JSONObject {
        var status = JSONObject()
        if let time {
            status["clock"] = .object([
                "kind": "manual", "time": .number(time.now), "date": .string(UnixTime.rfc3339(time.now)),
            ])
        }
        if let faults { status["faults"] = faults.json }
        return status
    }
}
