#!/usr/bin/env python3
"""Checks Bunting's OpenRPC document.

Usage: python check_openrpc.py PATH_TO_OPENRPC_JSON PATH_TO_META_SCHEMA

Exits 1 with one readable line per problem unless:
- the document is JSON without duplicate keys (the server's parser refuses them),
  and validates against the OpenRPC meta-schema (JSON Schema draft-07);
- every `$ref` is local and resolves, and OpenRPC references point at the right
  kind of component;
- method names are unique, every method takes by-name params with unique names,
  and has a boolean `x-implemented` that agrees with its description and errors;
- every method has at least one example pairing, and in each the params match
  the method's params by name (required ones present, no others), every value
  validates against its param's schema, the params object validates against
  `x-params-constraints` when the method has one, and the result validates
  against the result schema;
- every error (in `components.errors` or inline in a method) has a `data`
  object with a string `reason`, valid against `components.schemas.ErrorData`
  when that schema exists;
- every `x-notifications` entry has a name, a params schema, and examples that
  validate against it.

Needs the `jsonschema` package (4.18 or later).
"""

import json
import sys

try:
    import jsonschema
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT7
except ImportError:  # pragma: no cover - depends on the environment
    sys.exit("check_openrpc: needs the jsonschema package (4.18 or later): pip install jsonschema")

DOC_URI = "urn:bunting:openrpc"
NOT_IMPLEMENTED_SENTENCE = "Not implemented in this build: answers -32001 NOT_IMPLEMENTED."
NOT_IMPLEMENTED_CODE = -32001

# Keywords whose values are schemas, lists of schemas, or maps of schemas (draft-07).
SCHEMA_VALUED = ("additionalItems", "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else")
SCHEMA_LISTS = ("allOf", "anyOf", "oneOf")
SCHEMA_MAPS = ("properties", "patternProperties", "definitions")


class Checker:
    def __init__(self, doc):
        self.doc = doc
        self.problems = []
        self.refs = set()
        self.implemented = 0
        self.examples = 0
        registry = Registry().with_resource(DOC_URI, Resource(contents=doc, specification=DRAFT7))
        self.registry = registry

    def fail(self, where, message):
        self.problems.append(f"{where}: {message}")

    # ------------------------------------------------------------ references

    def pointer_target(self, pointer):
        """The value a local JSON pointer ('#/a/b') names, or raises KeyError."""
        if pointer == "#":
            return self.doc
        if not pointer.startswith("#/"):
            raise KeyError("not a local reference ('#/...')")
        node = self.doc
        for raw in pointer[2:].split("/"):
            token = raw.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict):
                if token not in node:
                    raise KeyError(f"no member '{token}'")
                node = node[token]
            elif isinstance(node, list):
                if not token.isdigit() or int(token) >= len(node):
                    raise KeyError(f"no element '{token}'")
                node = node[int(token)]
            else:
                raise KeyError(f"'{token}' inside a {type(node).__name__}")
        return node

    def resolve(self, node, where, kind=None):
        """Follows OpenRPC reference objects; returns (target, pointer) or (None, None)."""
        pointer = None
        seen = set()
        while isinstance(node, dict) and "$ref" in node:
            target_ref = node["$ref"]
            if not isinstance(target_ref, str):
                self.fail(where, "$ref must be a string")
                return None, None
            self.refs.add(target_ref)
            if target_ref in seen:
                self.fail(where, f"$ref cycle through {target_ref}")
                return None, None
            seen.add(target_ref)
            if kind and not target_ref.startswith(f"#/components/{kind}/"):
                self.fail(where, f"$ref {target_ref} should point into #/components/{kind}/")
            try:
                node = self.pointer_target(target_ref)
            except KeyError as problem:
                self.fail(where, f"$ref {target_ref} does not resolve ({problem})")
                return None, None
            pointer = target_ref
        return node, pointer

    def walk_schema(self, schema, where):
        """Checks every $ref inside a JSON Schema."""
        if isinstance(schema, bool):
            return
        if not isinstance(schema, dict):
            self.fail(where, "a schema must be an object or a boolean")
            return
        if "$ref" in schema:
            self.resolve({"$ref": schema["$ref"]}, where)
        for key in SCHEMA_VALUED:
            if key in schema:
                self.walk_schema(schema[key], f"{where}.{key}")
        if "items" in schema:
            items = schema["items"]
            if isinstance(items, list):
                for index, item in enumerate(items):
                    self.walk_schema(item, f"{where}.items[{index}]")
            else:
                self.walk_schema(items, f"{where}.items")
        for key in SCHEMA_LISTS:
            for index, sub in enumerate(schema.get(key, []) if isinstance(schema.get(key), list) else []):
                self.walk_schema(sub, f"{where}.{key}[{index}]")
        for key in SCHEMA_MAPS:
            members = schema.get(key)
            if isinstance(members, dict):
                for name, sub in members.items():
                    self.walk_schema(sub, f"{where}.{key}.{name}")
        dependencies = schema.get("dependencies")
        if isinstance(dependencies, dict):
            for name, sub in dependencies.items():
                if not isinstance(sub, list):
                    self.walk_schema(sub, f"{where}.dependencies.{name}")

    # ------------------------------------------------------------ validation of values

    def validator_at(self, pointer):
        """A validator for the schema at a local pointer, resolving its $refs inside the document."""
        return jsonschema.Draft7Validator({"$ref": DOC_URI + pointer}, registry=self.registry,
                                          format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)

    def validate_value(self, value, pointer, where):
        try:
            errors = sorted(self.validator_at(pointer).iter_errors(value), key=lambda e: list(e.absolute_path))
        except jsonschema.exceptions.SchemaError as problem:
            self.fail(where, f"the schema at {pointer} is not a valid schema: {problem.message}")
            return
        except Exception as problem:  # unresolvable references inside the schema, and the like
            self.fail(where, f"cannot validate against {pointer}: {problem}")
            return
        for error in errors:
            for leaf in explain(error):
                self.fail(where + json_path(leaf.absolute_path), short(leaf.message))

    # ------------------------------------------------------------ the document

    def check(self):
        doc = self.doc
        components = doc.get("components", {}) if isinstance(doc.get("components"), dict) else {}
        for name, schema in components.get("schemas", {}).items():
            self.walk_schema(schema, f"components.schemas.{name}")
        for name, descriptor in components.get("contentDescriptors", {}).items():
            if isinstance(descriptor, dict):
                self.walk_schema(descriptor.get("schema", {}), f"components.contentDescriptors.{name}.schema")
        for name, error in components.get("errors", {}).items():
            self.check_error(error, f"components.errors.{name}")

        names = set()
        methods = doc.get("methods", [])
        for index, entry in enumerate(methods):
            method, pointer = self.resolve(entry, f"methods[{index}]")
            if not isinstance(method, dict):
                continue
            name = method.get("name", f"#{index}")
            if name in names:
                self.fail(f"methods[{name}]", "method name is not unique")
            names.add(name)
            self.check_method(method, pointer or f"#/methods/{index}", f"methods[{name}]")
        self.methods = len(names)

        notifications = doc.get("x-notifications", [])
        if not isinstance(notifications, list):
            self.fail("x-notifications", "must be an array")
            notifications = []
        seen = set()
        for index, notification in enumerate(notifications):
            self.check_notification(notification, index, seen)
        self.notifications = len(notifications)
        self.errors = len(components.get("errors", {}))

    def check_error(self, error, where):
        """Checks one error object (or reference to one) and returns it resolved."""
        error, _ = self.resolve(error, where, "errors")
        if not isinstance(error, dict):
            return None
        data = error.get("data")
        if not isinstance(data, dict) or not isinstance(data.get("reason"), str) or not data["reason"]:
            self.fail(where, "needs a data example with a non-empty string `reason`")
        elif isinstance(self.doc.get("components", {}).get("schemas", {}).get("ErrorData"), (dict, bool)):
            self.validate_value(data, "#/components/schemas/ErrorData", where + ".data")
        return error

    def check_method(self, method, method_pointer, where):
        implemented = method.get("x-implemented")
        if not isinstance(implemented, bool):
            self.fail(where, "needs a boolean `x-implemented`")
        elif implemented:
            self.implemented += 1
        if method.get("paramStructure") != "by-name":
            self.fail(where, 'needs "paramStructure": "by-name" (the server takes by-name params only)')

        params = {}
        for index, entry in enumerate(method.get("params", [])):
            descriptor, pointer = self.resolve(entry, f"{where}.params[{index}]", "contentDescriptors")
            if not isinstance(descriptor, dict):
                continue
            pointer = pointer or f"{method_pointer}/params/{index}"
            pname = descriptor.get("name")
            if pname in params:
                self.fail(f"{where}.params", f"param name '{pname}' is not unique")
            self.walk_schema(descriptor.get("schema", {}), f"{where}.params.{pname}.schema")
            params[pname] = (descriptor, pointer + "/schema")

        result, result_pointer = None, None
        if "result" in method:
            result, result_pointer = self.resolve(method["result"], f"{where}.result", "contentDescriptors")
            if isinstance(result, dict):
                result_pointer = (result_pointer or f"{method_pointer}/result") + "/schema"
                self.walk_schema(result.get("schema", {}), f"{where}.result.schema")

        constraints_pointer = None
        if "x-params-constraints" in method:
            self.walk_schema(method["x-params-constraints"], f"{where}.x-params-constraints")
            constraints_pointer = f"{method_pointer}/x-params-constraints"

        codes = []
        for index, entry in enumerate(method.get("errors", [])):
            error = self.check_error(entry, f"{where}.errors[{index}]")
            if isinstance(error, dict):
                codes.append(error.get("code"))

        description = method.get("description", "")
        if implemented is False:
            if not description.startswith(NOT_IMPLEMENTED_SENTENCE):
                self.fail(where, f"x-implemented is false: the description must start with '{NOT_IMPLEMENTED_SENTENCE}'")
            if NOT_IMPLEMENTED_CODE not in codes:
                self.fail(where, "x-implemented is false: errors must include -32001 NOT_IMPLEMENTED")
        elif implemented is True:
            if NOT_IMPLEMENTED_SENTENCE in description:
                self.fail(where, "x-implemented is true: drop the not-implemented sentence from the description")
            if NOT_IMPLEMENTED_CODE in codes:
                self.fail(where, "x-implemented is true: drop -32001 NOT_IMPLEMENTED from the errors")

        examples = method.get("examples", [])
        if not examples:
            self.fail(where, "needs at least one example pairing")
        pairing_names = set()
        for index, entry in enumerate(examples):
            pairing, _ = self.resolve(entry, f"{where}.examples[{index}]", "examplePairings")
            if not isinstance(pairing, dict):
                continue
            pwhere = f"{where}.examples[{pairing.get('name', index)}]"
            if pairing.get("name") in pairing_names:
                self.fail(pwhere, "example pairing name is not unique in the method")
            pairing_names.add(pairing.get("name"))
            self.examples += 1
            self.check_pairing(pairing, pwhere, params, result_pointer, constraints_pointer)

    def check_pairing(self, pairing, where, params, result_pointer, constraints_pointer):
        given = {}
        for index, entry in enumerate(pairing.get("params", [])):
            example, _ = self.resolve(entry, f"{where}.params[{index}]", "examples")
            if not isinstance(example, dict):
                continue
            name = example.get("name")
            if name in given:
                self.fail(f"{where}.params", f"'{name}' is given twice")
                continue
            if name not in params:
                known = ", ".join(params) or "none"
                self.fail(f"{where}.params.{name}", f"the method has no param '{name}' (params: {known})")
                continue
            if "value" not in example:
                self.fail(f"{where}.params.{name}", "example has no value")
                continue
            given[name] = example["value"]
            self.validate_value(example["value"], params[name][1], f"{where}.params.{name}")
        for name, (descriptor, _) in params.items():
            if descriptor.get("required") is True and name not in given:
                self.fail(f"{where}.params", f"required param '{name}' is missing")
        if constraints_pointer:
            self.validate_value(given, constraints_pointer, f"{where}.params (x-params-constraints)")

        if result_pointer is None:
            if "result" in pairing:
                self.fail(where, "the method has no result, but the example gives one")
            return
        if "result" not in pairing:
            self.fail(where, "the method has a result: the example needs one")
            return
        example, _ = self.resolve(pairing["result"], f"{where}.result", "examples")
        if not isinstance(example, dict):
            return
        if "value" not in example:
            self.fail(f"{where}.result", "example has no value")
            return
        self.validate_value(example["value"], result_pointer, f"{where}.result")

    def check_notification(self, notification, index, seen):
        where = f"x-notifications[{index}]"
        if not isinstance(notification, dict):
            self.fail(where, "must be an object")
            return
        name = notification.get("name")
        if not isinstance(name, str) or not name:
            self.fail(where, "needs a name")
        elif name in seen:
            self.fail(where, f"notification name '{name}' is not unique")
        seen.add(name)
        where = f"x-notifications[{name}]"
        if not isinstance(notification.get("description"), str):
            self.fail(where, "needs a description")
        if "params" not in notification:
            self.fail(where, "needs a params schema")
            return
        self.walk_schema(notification["params"], f"{where}.params")
        pointer = f"#/x-notifications/{index}/params"
        examples = notification.get("examples", [])
        if not examples:
            self.fail(where, "needs at least one example")
        for number, example in enumerate(examples):
            if not isinstance(example, dict) or "value" not in example:
                self.fail(f"{where}.examples[{number}]", "needs a value")
                continue
            self.examples += 1
            self.validate_value(example["value"], pointer, f"{where}.examples[{example.get('name', number)}]")


def explain(error):
    """The errors that say why a value failed, descending into oneOf/anyOf.

    Among the branches of a oneOf/anyOf, the one whose discriminating `const`
    matched (e.g. the event with the right `type`) and that has the fewest
    errors is the one the value was meant to be, so its errors are reported.
    """
    if not error.context:
        return [error]
    branches = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)

    def missed_discriminator(errors):
        return any(e.validator == "const" and len(e.relative_path) == 1 for e in errors)

    chosen = min(branches.values(), key=lambda errors: (missed_discriminator(errors), len(errors)))
    return [leaf for sub in chosen for leaf in explain(sub)]


def json_path(parts):
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


def short(message, limit=300):
    return message if len(message) <= limit else message[:limit] + "…"


def load_json(path, what):
    def no_duplicates(pairs):
        members = {}
        for key, value in pairs:
            if key in members:
                raise ValueError(f"duplicate key '{key}'")
            members[key] = value
        return members

    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle, object_pairs_hook=no_duplicates)
    except (OSError, ValueError) as problem:
        sys.exit(f"check_openrpc: cannot read the {what} {path}: {problem}")


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: check_openrpc.py PATH_TO_OPENRPC_JSON PATH_TO_META_SCHEMA")
    doc = load_json(argv[1], "OpenRPC document")
    meta = load_json(argv[2], "meta-schema")

    problems = []
    meta_errors = sorted(jsonschema.Draft7Validator(meta).iter_errors(doc), key=lambda e: list(e.absolute_path))
    for error in meta_errors:
        for leaf in explain(error):
            path = json_path(leaf.absolute_path).lstrip(".") or "(root)"
            problems.append(f"meta-schema: {path}: {short(leaf.message)}")

    if isinstance(doc, dict) and isinstance(doc.get("methods"), list):
        checker = Checker(doc)
        checker.check()
        problems.extend(checker.problems)
    else:
        checker = None

    if problems:
        for problem in problems:
            print(problem, file=sys.stderr)
        print(f"check_openrpc: {len(problems)} problem(s) in {argv[1]}", file=sys.stderr)
        return 1
    print(f"check_openrpc: OK: {argv[1]}: {checker.methods} methods ({checker.implemented} implemented), "
          f"{checker.examples} examples, {checker.errors} errors, {checker.notifications} notifications, "
          f"{len(checker.refs)} distinct $ref targets resolved")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
