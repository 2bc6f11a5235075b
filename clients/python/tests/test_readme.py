"""The README's Python snippets stand on their own: each parses (those with `await` as
the body of a coroutine) and uses no name it does not import or define, so a reader
who copies one is not left looking for an import."""

import ast
import builtins
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"

# Snippets that continue the one before them rather than stand alone: they start from a
# client the reader already has, as the README says around them.
CONTINUING = ("bunting.", "definitions = bunting.")


def snippets():
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def parsed(source):
    if "await " in source or "async with" in source:
        source = "async def snippet():\n" + "".join("    " + line + "\n" for line in source.splitlines())
    return ast.parse(source)


def undefined_names(tree):
    defined = set(dir(builtins))
    used = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            defined.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Store):
                defined.add(node.id)
            else:
                used.append(node.id)
        elif isinstance(node, ast.arg):
            defined.add(node.arg)
    return sorted(set(name for name in used if name not in defined))


def test_every_snippet_imports_what_it_uses():
    checked = 0
    for source in snippets():
        if source.startswith(CONTINUING):
            continue
        assert undefined_names(parsed(source)) == [], source
        checked += 1
    assert checked >= 4  # the quick start, OpenFeature (threads and asyncio), asyncio


def test_a_snippet_that_lacks_an_import_is_caught():
    assert undefined_names(parsed("api.set_provider(BuntingProvider(Bunting.spawn()))\n")) == [
        "Bunting", "BuntingProvider", "api"]
