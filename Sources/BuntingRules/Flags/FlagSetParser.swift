import BuntingJSON

/// Reads a flagd document into compiled flags, collecting problems.
struct FlagSetParser {
    let pointerPrefix: String
    let fractionalHashing: FractionalHashing
    private(set) var problems: [RuleCompileError] = []
    /// Shared by every rule of the set and by its evaluators.
    let attributes = AttributeTable()
    /// The flags' variants, sharing what is written alike.
    private var variantTables = VariantTables()
    /// The parts the flags' rules share, their evaluators among them, once
    /// the document's shared members are read (`parse`).
    private var rules: SharedRuleParts?
    /// The flag set's `metadata`, which every flag's own metadata extends.
    private var setMetadata = JSONObject()

    init(pointerPrefix: String, fractionalHashing: FractionalHashing) {
        self.pointerPrefix = pointerPrefix
        self.fractionalHashing = fractionalHashing
    }

    struct Parsed {
        var flags: [CompiledFlag]
        var metadata: JSONObject
    }

    mutating func parse(_ document: JSON) throws(RuleCompileError) -> Parsed {
        guard case .object(let root) = document else {
            throw problem([], "a flag definition document is an object; got \(document.typeName)")
        }

        var evaluators = RuleEvaluators.none
        switch root["$evaluators"] {
        case nil, .null?: break
        case .object(let definitions)?:
            evaluators = RuleEvaluators(
                definitions, pointerPrefix: pointer(["$evaluators"]), maxDepth: JSONLogicRule.defaultMaxDepth,
                attributes: attributes)
            problems += evaluators.problems
        case let other?:
            throw problem(["$evaluators"], "\"$evaluators\" is an object of named rules; got \(other.typeName)")
        }

        // The flags' rules share the parts written alike (see `SharedRuleParts`).
        let rules = SharedRuleParts(evaluators: evaluators, attributes: attributes)
        self.rules = rules

        switch root["metadata"] {
        case nil, .null?: break
        case .object(let object)?: setMetadata = checkedMetadata(object, at: ["metadata"])
        case let other?: throw problem(["metadata"], "\"metadata\" is an object; got \(other.typeName)")
        }

        var flags: [CompiledFlag] = []
        switch root["flags"] {
        case .object(let object)?:
            for (key, definition) in object {
                flags.append(compileFlag(key: key, definition, at: ["flags", key], rules, setMetadata))
            }
        case .array(let list)?:
            var seen = Set<String>()
            for (position, definition) in list.enumerated() {
                let at = ["flags", String(position)]
                guard case .string(let key)? = definition["key"], !key.isEmpty else {
                    problems.append(
                        problem(at + ["key"], "a flag in a \"flags\" array needs a non-empty string \"key\""))
                    continue
                }
                guard seen.insert(key).inserted else {
                    problems.append(problem(at + ["key"], "flag \"\(key)\" is defined more than once"))
                    continue
                }
                flags.append(compileFlag(key: key, definition, at: at, rules, setMetadata))
            }
        case nil:
            throw problem([], "a flag definition document needs \"flags\"")
        case let other?:
            throw problem(["flags"], "\"flags\" is an object of flags by key; got \(other.typeName)")
        }
        return Parsed(flags: flags, metadata: setMetadata)
    }

    /// One more member of an object `flags`, read after `parse` read the
    /// document's other members: how a document too large to be one tree
    /// gives its flags (its keys are distinct, as an object's are).
    /// Frees what is only used while flags are compiled (the variants met
    /// so far, to share values written alike): no flag is compiled after.
    mutating func finishCompiling() {
        variantTables = VariantTables()
    }

    mutating func parseMember(key: String, _ definition: JSON) -> CompiledFlag {
        guard let rules else { preconditionFailure("a flag member read before the document's shared members") }
        return compileFlag(key: key, definition, at: ["flags", key], rules, setMetadata)
    }

    // MARK: - One flag

    private mutating func compileFlag(
        key: String, _ definition: JSON, at path: [String], _ rules: SharedRuleParts, _ setMetadata: JSONObject
    ) -> CompiledFlag {
        var unusable: RuleCompileError?
        func fail(_ error: RuleCompileError) -> RuleCompileError {
            if unusable == nil { unusable = error }
            return error
        }
        guard case .object(let flag) = definition else {
            let error = problem(path, "a flag is an object; got \(definition.typeName)")
            problems.append(error)
            return CompiledFlag(
                key: key, isEnabled: false, variants: VariantTable(JSONObject()), defaultVariant: nil, targeting: nil,
                unusable: error, metadata: setMetadata)
        }

        var isEnabled = false
        switch flag["state"] {
        case .string("ENABLED")?: isEnabled = true
        case .string("DISABLED")?: isEnabled = false
        default: problems.append(fail(problem(path + ["state"], "\"state\" is \"ENABLED\" or \"DISABLED\"")))
        }

        var variants = VariantTable(JSONObject())
        if case .object(let object)? = flag["variants"], !object.isEmpty {
            variants = variantTables.table(object)
        } else {
            problems.append(fail(problem(path + ["variants"], "\"variants\" is a non-empty object of values by name")))
        }

        // flagd reads a boolean default variant as the variant "true" or "false".
        var defaultVariant: String?
        switch flag["defaultVariant"] {
        case nil, .null?, .string("")?: defaultVariant = nil
        case .string(let name)?: defaultVariant = name
        case .bool(let value)?: defaultVariant = value ? "true" : "false"
        case let other?:
            problems.append(
                fail(
                    problem(
                        path + ["defaultVariant"], "\"defaultVariant\" is a variant name; got \(other.typeName)")))
        }
        if let defaultVariant, !variants.isEmpty, variants.position(of: defaultVariant) == nil {
            // flagd's providers resolve such a flag with a GENERAL error; the
            // flagd daemon refuses the document. Listed, not fatal.
            problems.append(
                problem(
                    path + ["defaultVariant"], "default variant \"\(defaultVariant)\" is not one of the variants"))
        }

        var targeting: JSONLogicRule?
        if let rule = flag["targeting"], Self.isPythonTruthy(rule) {
            if case .object = rule {
                do {
                    targeting = try JSONLogicRule(
                        rule, sharing: rules,
                        pointerPrefix: pointer(path + ["targeting"]), fractionalHashing: fractionalHashing)
                } catch {
                    problems.append(fail(error))
                }
            } else {
                problems.append(
                    fail(
                        problem(
                            path + ["targeting"],
                            "\"targeting\" is a JSONLogic rule (an object); got \(rule.typeName)")))
            }
        }

        var metadata = setMetadata
        switch flag["metadata"] {
        case nil, .null?: break
        case .object(let object)?:
            let before = problems.count
            metadata.merge(checkedMetadata(object, at: path + ["metadata"]))
            if problems.count > before { _ = fail(problems[before]) }
        case let other?:
            problems.append(fail(problem(path + ["metadata"], "\"metadata\" is an object; got \(other.typeName)")))
        }

        return CompiledFlag(
            key: key, isEnabled: isEnabled, variants: variants, defaultVariant: defaultVariant,
            targeting: targeting, unusable: unusable, metadata: metadata)
    }

    /// Metadata values are strings, numbers or booleans; other members are
    /// reported and left out.
    private mutating func checkedMetadata(_ object: JSONObject, at path: [String]) -> JSONObject {
        var checked = JSONObject()
        for (key, value) in object {
            switch value {
            case .string, .integer, .real, .bool: checked[key] = value
            default:
                problems.append(
                    problem(path + [key], "a metadata value is a string, number or boolean; got \(value.typeName)")
                )
            }
        }
        return checked
    }

    /// flagd's providers treat a falsy targeting (`{}`, `[]`, `""`, `0`,
    /// `false`, null) as no targeting.
    private static func isPythonTruthy(_ value: JSON) -> Bool {
        switch value {
        case .null: return false
        case .bool(let flag): return flag
        case .integer(let number): return number != 0
        case .real(let number): return number != 0
        case .string(let text): return !text.isEmpty
        case .array(let elements): return !elements.isEmpty
        case .object(let object): return !object.isEmpty
        }
    }

    private func pointer(_ tokens: [String]) -> String {
        pointerPrefix + JSONPointer(tokens: tokens).description
    }

    private func problem(_ tokens: [String], _ message: String) -> RuleCompileError {
        RuleCompileError(pointer: pointer(tokens), message: message)
    }
}
