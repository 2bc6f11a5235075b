#!/usr/bin/env python3
"""Writes bunting/_methods.py, bunting/events.py and bunting/results.py from the OpenRPC document.

    python3 clients/python/tools/generate_methods.py          # regenerate
    python3 clients/python/tools/generate_methods.py --check  # exit 1 if out of date

Each method of the document becomes one method of `SyncMethods` (mixed into
`Bunting`) and one coroutine of `AsyncMethods` (mixed into `AsyncBunting`):
snake_case keyword params, camelCase on the wire; required params may also be
given by position, optional ones are keyword-only and left out of the request
when None; every method takes `timeout`. Methods that make a subscription
(SUBSCRIPTIONS below) take a `callback` and return a Subscription of the
TypedDict of their notification's params.

bunting/results.py has a TypedDict for each object a method returns (the document's
named schemas under their names, inline objects under a name made from where they
are), and each method is annotated with its result's.

bunting/events.py has one TypedDict per notification of the document's
`x-notifications`: the keys every variant of its params has are required, the
others optional (a notification whose params are one of several shapes gets
the union of their keys).
"""

import argparse
import json
import keyword
import re
import sys
import textwrap
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent / "bunting"
OUTPUT = PACKAGE / "_methods.py"
EVENTS_OUTPUT = PACKAGE / "events.py"
RESULTS_OUTPUT = PACKAGE / "results.py"
DOCUMENT = HERE.parent.parent.parent / "schemas" / "openrpc.json"



def _load_errors():
    # By file, not through the package: the package imports the module this script writes.
    import importlib.util
    spec = importlib.util.spec_from_file_location("_bunting_errors", PACKAGE / "errors.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


errors = _load_errors()

#: Methods whose reply makes a subscription, and the notification method its events come in.
SUBSCRIPTIONS = {
    "subscribe": "event",
    "subscribeToUpdates": "updates",
    "subscribeToDefinitions": "definitions",
}
#: The TypedDict (in bunting/events.py) of each notification's params.
EVENT_TYPES = {
    "event": "ChannelEvent",
    "updates": "UpdatesEvent",
    "definitions": "DefinitionsEvent",
}
#: Names every generated method takes besides the document's params.
RESERVED = ("self", "timeout", "callback", "params")
WIDTH = 100


def snake(name: str) -> str:
    """`getFeatureFlag` → `get_feature_flag`, `disableSDK` → `disable_sdk`, `rpc.discover` → `rpc_discover`."""
    name = re.sub(r"[^0-9A-Za-z]+", "_", name)
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    name = name.lower().strip("_")
    return name + "_" if keyword.iskeyword(name) else name


class Types:
    """Python annotations for JSON schemas, with aliases for named string enums.

    With `typed` (the methods' results), an object schema with properties is a TypedDict
    of bunting/results.py: a named schema under its name, an inline one under a name made
    from where it is (`StatusResultChannels`); `self.typed` collects them in order.
    """

    def __init__(self, document: Dict[str, Any], typed: bool = False):
        self.components = document.get("components", {}).get("schemas", {})
        self.aliases: Dict[str, List[str]] = {}
        self.typed_mode = typed
        self.typed: Dict[str, Dict[str, Any]] = {}  # TypedDict name → its object schema
        self.docs: Dict[str, str] = {}  # what an inline object's TypedDict is, for its docstring
        self.unions: Dict[str, str] = {}  # a named oneOf of the results → its Union

    def resolve(self, schema: Dict[str, Any]) -> Tuple[Optional[str], Dict[str, Any]]:
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            name = ref.rsplit("/", 1)[1]
            return name, self.components.get(name, {})
        return None, schema

    def annotation(self, schema: Any, hint: str = "") -> str:
        if not isinstance(schema, dict):
            return "Any"
        name, schema = self.resolve(schema)
        if name and schema.get("type") == "string" and isinstance(schema.get("enum"), list):
            self.aliases[name] = schema["enum"]
            return name
        if self.typed_mode and self.is_typed_dict(schema) and (name or hint):
            typed_name = name or hint
            if typed_name not in self.typed:
                self.typed[typed_name] = schema
                for key, value in schema["properties"].items():
                    inner = typed_name + key[:1].upper() + key[1:]
                    self.docs.setdefault(inner, "The `%s` of a `%s`." % (key, typed_name))
                    self.annotation(value, inner)
            return typed_name
        if name:
            options = schema.get("oneOf") or schema.get("anyOf")
            if self.typed_mode and isinstance(options, list):
                # A named union: an alias of bunting/results.py, made of its options.
                if name not in self.unions:
                    self.unions[name] = ""
                    self.unions[name] = self.options(options, name, named=True)
                return name
            return self.annotation(schema, name)
        for combinator in ("oneOf", "anyOf"):
            options = schema.get(combinator)
            if isinstance(options, list):
                return self.options(options, hint, named=False)
        kind = schema.get("type")
        if isinstance(kind, list):
            return self.union([self.annotation(dict(schema, type=one)) for one in kind])
        if kind == "string" and isinstance(schema.get("enum"), list):
            return "Literal[%s]" % ", ".join(json.dumps(value) for value in schema["enum"])
        if kind == "array":
            return "List[%s]" % self.annotation(schema.get("items"), hint + "Item")
        if kind == "object" and self.typed_mode and isinstance(schema.get("additionalProperties"), dict):
            return "Dict[str, %s]" % self.annotation(schema["additionalProperties"], hint + "Value")
        return {"string": "str", "integer": "int", "number": "float", "boolean": "bool",
                "null": "None", "object": "Dict[str, Any]"}.get(kind, "Any")

    def options(self, options: List[Any], hint: str, named: bool) -> str:
        """The union of a oneOf's options; inline objects among them are named by their title,
        else after the union (and their place, when there are several)."""
        inline = [option for option in options
                  if isinstance(option, dict) and "$ref" not in option and option.get("type") == "object"]
        annotations = []
        for index, option in enumerate(options):
            if not any(option is other for other in inline):
                annotations.append(self.annotation(option, hint))
                continue
            title = "".join(part[:1].upper() + part[1:] for part in re.split(r"[^0-9A-Za-z]+", option.get("title", ""))
                            if part)
            if len(inline) > 1:
                title = title or "%s%d" % (hint, index + 1)
            annotations.append(self.annotation(option, title or (hint + "Object" if named else hint)))
        return self.union(annotations)

    @staticmethod
    def is_typed_dict(schema: Dict[str, Any]) -> bool:
        """An object of known keys, each a Python identifier."""
        properties = schema.get("properties")
        return (schema.get("type") == "object" and isinstance(properties, dict) and bool(properties)
                and all(key.isidentifier() and not keyword.iskeyword(key) for key in properties))

    @staticmethod
    def union(options: List[str]) -> str:
        unique = list(dict.fromkeys(options))
        if "Any" in unique:
            return "Any"
        nullable = "None" in unique
        rest = [option for option in unique if option != "None"]
        if not rest:
            return "None"
        inner = rest[0] if len(rest) == 1 else "Union[%s]" % ", ".join(rest)
        return "Optional[%s]" % inner if nullable else inner


def wrap(text: str, indent: str, hanging: str = "") -> List[str]:
    """Wraps each line of `text` (keeping list items) to WIDTH."""
    lines: List[str] = []
    first = True
    for raw in text.strip().splitlines():
        if not raw.strip():
            lines.append("")
            continue
        lead = indent if first else indent + hanging
        bullet = re.match(r"^(\s*[-*] )", raw)
        rest = " " * len(bullet.group(1)) if bullet else ""
        lines += textwrap.wrap(raw.strip() if not bullet else raw, WIDTH, initial_indent=lead,
                               subsequent_indent=indent + hanging + rest,
                               break_long_words=False, break_on_hyphens=False) or [lead]
        first = False
    return lines


def escape(line: str) -> str:
    return line.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')


class Method:
    def __init__(self, spec: Dict[str, Any], types: Types, document: Dict[str, Any], results: Types):
        self.name: str = spec["name"]
        self.python = snake(self.name)
        self.spec = spec
        self.notification = SUBSCRIPTIONS.get(self.name)
        self.deprecated = bool(spec.get("deprecated"))
        self.params = []
        for param in spec.get("params", []):
            python = snake(param["name"])
            if python in RESERVED:
                raise SystemExit("%s: param %r clashes with the client's own %r; rename one"
                                 % (self.name, param["name"], python))
            self.params.append((param["name"], python, bool(param.get("required")),
                                types.annotation(param.get("schema")), param.get("description", "")))
        result = spec.get("result", {})
        named, schema = types.resolve(result.get("schema", {}))
        self.result_description = (result.get("description") or schema.get("description")
                                   or ("The %s." % (named or result.get("name", "result"))))
        self.result_type = results.annotation(result.get("schema"), self.python_class() + "Result")
        self.raises = self.error_classes(document)

    def python_class(self) -> str:
        """`getFeatureFlag` → `GetFeatureFlag`, `rpc.discover` → `RpcDiscover`."""
        return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^0-9A-Za-z]+", self.name) if part)

    def error_classes(self, document: Dict[str, Any]) -> List[str]:
        names: List[str] = []
        known = document.get("components", {}).get("errors", {})
        for entry in self.spec.get("errors", []):
            ref = entry.get("$ref", "")
            error = known.get(ref.rsplit("/", 1)[-1], entry) if ref else entry
            data = error.get("data") if isinstance(error.get("data"), dict) else {}
            cls = errors.error_class(error.get("code"), data.get("reason")).__name__
            if cls not in names:
                names.append(cls)
        return names

    def signature(self) -> List[str]:
        required = ["%s: %s" % (python, kind) for _, python, needed, kind, _ in self.params if needed]
        optional = ["%s: Optional[%s] = None" % (python, kind) if not kind.startswith("Optional[") and kind != "Any"
                    else "%s: %s = None" % (python, kind)
                    for _, python, needed, kind, _ in self.params if not needed]
        parts = ["self", *required]
        if self.notification:
            parts.append("callback: Optional[Callable[[%s], Any]] = None" % EVENT_TYPES[self.notification])
        parts += ["*", *optional, "timeout: Optional[float] = None"]
        return parts

    def docstring(self, flavour: str) -> List[str]:
        indent = " " * 8
        lines: List[str] = []
        summary = self.spec.get("summary", "").strip() or "Calls %s." % self.name
        if self.deprecated:
            summary = "Deprecated. " + summary
        lines += wrap("`%s`: %s" % (self.name, summary), indent)
        description = self.spec.get("description", "").strip()
        if description:
            lines += [""] + wrap(description, indent)
        lines += ["", indent + "Args:"]
        for _, python, needed, _, text in self.params:
            lines += wrap("%s: %s%s" % (python, "" if needed else "(optional) ", text.strip() or "-"),
                          indent + "    ", "    ")
        if self.notification:
            lines += wrap("callback: called with each %s notification's params (on the client's "
                          "callback %s) instead of queueing them on the subscription."
                          % (self.notification, "thread" if flavour == "sync" else "task; may be a coroutine function"),
                          indent + "    ", "    ")
        lines += wrap("timeout: seconds to wait for the reply (default: the client's call_timeout).",
                      indent + "    ", "    ")
        lines += ["", indent + "Returns:"]
        if self.notification:
            kind = "Subscription" if flavour == "sync" else "AsyncSubscription"
            article = "An" if kind[0] in "AEIOU" else "A"
            lines += wrap("%s %s whose queue (or callback) gets its %s notifications (%s), or None "
                          "when no subscription is made (while the SDK is disabled)."
                          % (article, kind, self.notification, EVENT_TYPES[self.notification]),
                          indent + "    ", "    ")
        else:
            lines += wrap(self.result_description or "The result.", indent + "    ", "    ")
        if self.raises:
            lines += ["", indent + "Raises:"]
            lines += wrap(", ".join(self.raises) + " (from bunting.errors); RequestTimeout; ServerExited.",
                          indent + "    ", "    ")
        lines = [escape(line) for line in lines]
        lines[0] = indent + '"""' + lines[0].strip()
        lines.append(indent + '"""')
        return lines

    def render(self, flavour: str) -> List[str]:
        is_async = flavour == "async"
        if self.notification:
            returns = "Optional[%s[%s]]" % ("Subscription" if not is_async else "AsyncSubscription",
                                           EVENT_TYPES[self.notification])
        else:
            returns = self.result_type
        head = "    %sdef %s(%s) -> %s:" % ("async " if is_async else "", self.python, ", ".join(self.signature()),
                                             returns)
        lines = [head] if len(head) <= WIDTH else self.wrapped_head(is_async, returns)
        lines += self.docstring(flavour)
        call = "await self._" if is_async else "self._"
        if self.params:
            required = ", ".join('"%s": %s' % (wire, python) for wire, python, needed, _, _ in self.params if needed)
            lines.append("        params: Dict[str, Any] = {%s}" % required)
            for wire, python, needed, _, _ in self.params:
                if not needed:
                    lines.append("        if %s is not None:" % python)
                    lines.append('            params["%s"] = %s' % (wire, python))
            params = "params"
        else:
            params = "None"
        if self.notification:
            lines.append('        return %ssubscribe("%s", %s, "%s", callback, timeout)'
                         % (call, self.name, params, self.notification))
        else:
            lines.append('        return %srequest("%s", %s, timeout)' % (call, self.name, params))
        return lines

    def wrapped_head(self, is_async: bool, returns: str) -> List[str]:
        lines = ["    %sdef %s(" % ("async " if is_async else "", self.python)]
        for part in self.signature():
            lines.append("        %s," % part)
        lines.append("    ) -> %s:" % returns)
        return lines

    def table_entry(self) -> str:
        lines = ['    "%s": MethodSpec(' % self.name,
                 '        "%s", "%s",' % (self.name, self.python)]
        if self.params:
            lines.append("        (")
            lines += ['            Param("%s", "%s", %s),' % (wire, python, needed)
                      for wire, python, needed, _, _ in self.params]
            lines.append("        ),")
        else:
            lines.append("        (),")
        lines.append("        %s, %s," % (json.dumps(self.notification) if self.notification else "None",
                                          self.deprecated))
        lines.append("    ),")
        return "\n".join(lines)


HEADER = '''\
# Generated from schemas/openrpc.json ({title} {version}) by clients/python/tools/generate_methods.py.
# Do not edit: change the document, then run `python3 clients/python/tools/generate_methods.py`.
"""Bunting's methods, one Python method each, generated from the OpenRPC document.

`SyncMethods` is mixed into `Bunting` and `AsyncMethods` into `AsyncBunting`. Params are
snake_case here and camelCase on the wire; required params may be given by position,
optional ones are keyword-only and not sent when None. Every method takes `timeout`
(seconds; None means the client's call_timeout, math.inf no limit).
"""

from __future__ import annotations

from typing import (TYPE_CHECKING, Any, Callable, Dict, List, Literal, NamedTuple, Optional, Tuple,
                    Union)

from .events import ChannelEvent, DefinitionsEvent, UpdatesEvent

if TYPE_CHECKING:
    from .aio import AsyncSubscription
    from .client import Subscription

EventCallback = Callable[[Any], Any]
'''

TABLE = '''

class Param(NamedTuple):
    wire: str
    python: str
    required: bool


class MethodSpec(NamedTuple):
    name: str
    python: str
    params: Tuple[Param, ...]
    #: for methods that make a subscription: the notification method of its events
    notification: Optional[str]
    deprecated: bool


#: Every method of the document, by its wire name.
METHODS: Dict[str, MethodSpec] = {{
{entries}
}}
'''

CLASS = '''

class {name}:
    """{doc}"""

    __slots__ = ()

    {prefix}def _request(self, method: str, params: Optional[Dict[str, Any]],
            timeout: Optional[float]) -> Any:
        raise NotImplementedError

    {prefix}def _subscribe(self, method: str, params: Optional[Dict[str, Any]], notification: str,
            callback: Optional[EventCallback], timeout: Optional[float]) -> Any:
        raise NotImplementedError
'''


def generate(document: Dict[str, Any]) -> str:
    types = Types(document)
    results = Types(document, typed=True)
    methods = [Method(spec, types, document, results) for spec in document["methods"]]
    clashes = [name for name in {m.python for m in methods} if sum(m.python == name for m in methods) > 1]
    if clashes:
        raise SystemExit("methods whose Python names clash: %s" % ", ".join(sorted(clashes)))
    info = document.get("info", {})
    out = [HEADER.format(title=info.get("title", "?"), version=info.get("version", "?"))]
    for alias in sorted(types.aliases):
        out.append(literal_alias(alias, types.aliases[alias]))
    # An alias the params use is written above; importing its twin from the results would redefine it.
    named = sorted((set(results.typed) | set(results.aliases) | set(results.unions)) - set(types.aliases))
    out.append("\n" + "\n".join(wrap_list("from .results import (", named, ")")) + "\n")
    out.append(TABLE.format(entries="\n".join(m.table_entry() for m in methods)))
    for flavour, name, doc in (("sync", "SyncMethods", "The methods of `Bunting`; each returns the reply's result."),
                               ("async", "AsyncMethods", "The methods of `AsyncBunting`; each is a coroutine.")):
        out.append(CLASS.format(name=name, doc=doc, prefix="async " if flavour == "async" else ""))
        for method in methods:
            out.append("\n" + "\n".join(method.render(flavour)) + "\n")
    return "".join(part if part.endswith("\n") else part + "\n" for part in out)


EVENTS_HEADER = '''\
# Generated from schemas/openrpc.json ({title} {version}) by clients/python/tools/generate_methods.py.
# Do not edit: change the document, then run `python3 clients/python/tools/generate_methods.py`.
"""The params of the server's notifications, as TypedDicts generated from the OpenRPC document.

Each is what a Subscription's events are: `subscribe` gives `Subscription[ChannelEvent]`,
`subscribeToDefinitions` `Subscription[DefinitionsEvent]`, `subscribeToUpdates`
`Subscription[UpdatesEvent]`. At run time they are plain dicts. The keys every variant
has are required; the rest are present only where the type of event has them.
"""

from typing import Any, Dict, List, Literal, TypedDict, Union
'''


class EventType:
    """One notification's params as a TypedDict: the union of its variants' keys."""

    def __init__(self, name: str, notification: Dict[str, Any], types: Types):
        self.name = name
        self.notification = notification
        self.types = types
        self.schema = types.resolve(notification.get("params", {}))[1]
        variants = [types.resolve(option)[1] for option in self.schema.get("oneOf", [])] or [self.schema]
        self.keys: Dict[str, List[Any]] = {}  # key → its schemas across the variants, in order
        required = None
        for variant in variants:
            for key, schema in variant.get("properties", {}).items():
                self.keys.setdefault(key, []).append(schema)
            wanted = set(variant.get("required", []))
            required = wanted if required is None else required & wanted
        self.required = [key for key in self.keys if key in (required or set())]
        self.optional = [key for key in self.keys if key not in self.required]

    def annotation(self, key: str) -> str:
        schemas = self.keys[key]
        constants = [schema["const"] for schema in schemas if isinstance(schema, dict) and "const" in schema]
        others = [self.types.annotation(schema) for schema in schemas
                  if not (isinstance(schema, dict) and "const" in schema)]
        if not others:
            return "Literal[%s]" % ", ".join(json.dumps(value) for value in dict.fromkeys(constants))
        # A constant is one value of a wider type that another variant names, and an enum
        # whose values another lists as well (InteractiveChannel in Channel) adds nothing.
        aliases = self.types.aliases
        wider = [name for name in dict.fromkeys(others)
                 if not any(other != name and name in aliases and other in aliases
                            and set(aliases[name]) <= set(aliases[other]) for other in others)]
        return self.types.union(wider)

    def render(self) -> List[str]:
        summary = self.notification.get("summary", "").strip() or "A `%s` notification." % self.notification["name"]
        description = self.schema.get("description", "").strip()
        doc = wrap(summary, "    ")
        if description:
            doc += [""] + wrap(description, "    ")
        doc = [escape(line) for line in doc]
        doc[0] = '    """' + doc[0].strip()
        doc.append('    """')
        base = "_%sKeys" % self.name
        lines = ["", "", "class %s(TypedDict):" % base]
        for key in self.required:
            lines += self.field(key)
        lines += ["", "", "class %s(%s, total=False):" % (self.name, base)]
        lines += doc
        if self.optional:
            lines.append("")
            for key in self.optional:
                lines += self.field(key)
        return lines

    def field(self, key: str) -> List[str]:
        annotation = self.annotation(key)
        line = "    %s: %s" % (key, annotation)
        if len(line) <= WIDTH or not annotation.startswith("Literal["):
            return [line]
        return wrap_list("    %s: Literal[" % key, annotation[len("Literal["):-1].split(", "), "]", "    ")


def generate_events(document: Dict[str, Any]) -> str:
    types = Types(document)
    by_name = {notification["name"]: notification for notification in document.get("x-notifications", [])}
    missing = sorted(set(EVENT_TYPES) - set(by_name))
    if missing:
        raise SystemExit("the document has no notification %s" % ", ".join(missing))
    unnamed = sorted(set(by_name) - set(EVENT_TYPES))
    if unnamed:
        raise SystemExit("name a TypedDict for the notification %s in EVENT_TYPES" % ", ".join(unnamed))
    events = [EventType(EVENT_TYPES[name], by_name[name], types) for name in EVENT_TYPES]
    body: List[str] = []
    for event in events:
        body += event.render()
    info = document.get("info", {})
    out = [EVENTS_HEADER.format(title=info.get("title", "?"), version=info.get("version", "?"))]
    out += [literal_alias(alias, types.aliases[alias]) for alias in sorted(types.aliases)]
    out += body
    names = sorted([*types.aliases, *(event.name for event in events)])
    out += ["", ""] + wrap_list("__all__ = [", [json.dumps(name) for name in names], "]")
    return "\n".join(out) + "\n"


RESULTS_HEADER = '''\
# Generated from schemas/openrpc.json ({title} {version}) by clients/python/tools/generate_methods.py.
# Do not edit: change the document, then run `python3 clients/python/tools/generate_methods.py`.
"""The methods' results, as TypedDicts generated from the OpenRPC document.

Each method of `Bunting` and `AsyncBunting` is annotated with what it returns: `status()`
a `StatusResult`, `evaluate_flag()` an `EvaluateFlagResult`, `get_feature_flag()` an
`Optional[FeatureFlag]`. At run time they are plain dicts. Keys the document requires are
required here; the others may be absent.
"""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union
'''


def generate_results(document: Dict[str, Any]) -> str:
    results = Types(document, typed=True)
    for spec in document["methods"]:
        method_name = "".join(part[:1].upper() + part[1:] for part in re.split(r"[^0-9A-Za-z]+", spec["name"]) if part)
        results.annotation(spec.get("result", {}).get("schema"), method_name + "Result")
    body: List[str] = []
    for name, schema in results.typed.items():
        required = [key for key in schema["properties"] if key in set(schema.get("required", []))]
        optional = [key for key in schema["properties"] if key not in required]
        words = schema.get("description", "").strip() or results.docs.get(name) or "`%s`." % name
        doc = [escape(line) for line in wrap(words, "    ")]
        doc[0] = '    """' + doc[0].strip()
        doc.append('    """')
        fields = {key: results.annotation(value, name + key[:1].upper() + key[1:])
                  for key, value in schema["properties"].items()}
        if optional and required:
            base = "_%sKeys" % name
            body += ["", "", "class %s(TypedDict):" % base] + ["    %s: %s" % (key, fields[key]) for key in required]
            body += ["", "", "class %s(%s, total=False):" % (name, base)] + doc + [""]
            body += ["    %s: %s" % (key, fields[key]) for key in optional]
        else:
            body += ["", "", "class %s(TypedDict%s):" % (name, ", total=False" if optional else "")] + doc + [""]
            body += ["    %s: %s" % (key, fields[key]) for key in required + optional]
    info = document.get("info", {})
    out = [RESULTS_HEADER.format(title=info.get("title", "?"), version=info.get("version", "?"))]
    aliases = [literal_alias(alias, results.aliases[alias]) for alias in sorted(results.aliases)]
    out += aliases + body[1 if not aliases else 0:]
    for name, union in results.unions.items():
        # After the classes: an alias is evaluated when the module is imported.
        words = results.components.get(name, {}).get("description", "").strip() or name
        out += [""] + wrap(words, "#: ")
        out += wrap_list("%s = %s[" % (name, union.split("[", 1)[0]), split_top(union.split("[", 1)[1][:-1]), "]")
    names = sorted([*results.aliases, *results.typed, *results.unions])
    out += ["", ""] + wrap_list("__all__ = [", [json.dumps(name) for name in names], "]")
    return "\n".join(out) + "\n"


def split_top(text: str) -> List[str]:
    """The comma-separated parts of `text` outside brackets."""
    parts, depth, start = [], 0, 0
    for index, character in enumerate(text):
        if character == "[":
            depth += 1
        elif character == "]":
            depth -= 1
        elif character == "," and depth == 0:
            parts.append(text[start:index].strip())
            start = index + 1
    parts.append(text[start:].strip())
    return parts


def literal_alias(name: str, values: List[Any]) -> str:
    return "\n".join(wrap_list("%s = Literal[" % name, [json.dumps(value) for value in values], "]"))


def wrap_list(opening: str, items: List[str], closing: str, indent: str = "") -> List[str]:
    """`opening` + the items separated by commas + `closing`, on one line or, when too
    long, one item a line."""
    line = opening + ", ".join(items) + closing
    if len(line) <= WIDTH:
        return [line]
    return [opening] + ["%s    %s," % (indent, item) for item in items] + [indent + closing]


def outputs(document: Dict[str, Any], package: Path = PACKAGE) -> Dict[Path, str]:
    """Each module to write, with its text."""
    return {package / OUTPUT.name: generate(document), package / EVENTS_OUTPUT.name: generate_events(document),
            package / RESULTS_OUTPUT.name: generate_results(document)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--document", type=Path, default=DOCUMENT, help="the OpenRPC document")
    parser.add_argument("--package", type=Path, default=PACKAGE, help="the package directory to write into")
    parser.add_argument("--check", action="store_true", help="only check that the output is up to date")
    options = parser.parse_args()
    stale = 0
    for path, text in outputs(json.loads(options.document.read_text(encoding="utf-8")), options.package).items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        if options.check:
            print("%s is out of date; run %s" % (path, Path(__file__).name), file=sys.stderr)
            stale = 1
        else:
            path.write_text(text, encoding="utf-8")
            print("wrote %s" % path)
    return stale


if __name__ == "__main__":
    sys.exit(main())
