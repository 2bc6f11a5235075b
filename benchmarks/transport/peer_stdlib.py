#!/usr/bin/env python3
"""A Python JSON-RPC server on the standard library alone, the Python
counterpart of baseline.c: evaluateFlag is answered with the result recorded
for the flag in --flags FILE (the results Bunting gave), or with --answers
FILE for the flag key and the context's targeting key (as baseline.c reads
it), other methods with --result JSON.

    peer_stdlib.py [--lsp] (--flags FILE | --answers FILE) [--result JSON]
"""
import json
import sys

from peer_io import serve

NOT_FOUND = {"value": None, "variant": None, "reason": "ERROR", "errorCode": "FLAG_NOT_FOUND"}


def main():
    args = sys.argv[1:]
    flags = json.load(open(args[args.index("--flags") + 1])) if "--flags" in args else {}
    fixed = json.loads(args[args.index("--result") + 1]) if "--result" in args else None
    answers = json.load(open(args[args.index("--answers") + 1])) if "--answers" in args else None

    def answer(request):
        if request["method"] == "evaluateFlag":
            params = request.get("params") or {}
            if answers is not None:
                user = (params.get("context") or {}).get("targetingKey")
                index = answers["answers"].get(f"{params.get('flagKey')} {user}")
                return NOT_FOUND if index is None else answers["results"][index]
            return flags.get(params.get("flagKey"), NOT_FOUND)
        if fixed is None:
            raise LookupError(request["method"])
        return fixed

    serve(answer)


if __name__ == "__main__":
    main()
