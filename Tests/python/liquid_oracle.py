#!/usr/bin/env python3
"""Renders Liquid templates with python-liquid, for Bunting's differential test.

Usage: liquid_oracle.py < CASES

Reads one case a line on stdin, a JSON object {"template": T, "data": D},
and writes one line per case: {"text": OUTPUT} when the template parses and
renders, {"error": "Kind: message"} when it does not. The environment is
python-liquid's default (strict filters, lax undefined variables, errors
raised), which is the closest to Bunting's strict parsing; dates are read in
UTC (run it with TZ=UTC).
"""

import json
import sys

from liquid import Environment


def main() -> None:
    env = Environment()
    out = sys.stdout
    for line in sys.stdin:
        case = json.loads(line)
        try:
            text = env.from_string(case["template"]).render(**case.get("data", {}))
            answer = {"text": text}
        except Exception as error:  # every failure is an answer: the template is invalid
            first = str(error).splitlines()[0] if str(error) else ""
            answer = {"error": f"{type(error).__name__}: {first}"}
        out.write(json.dumps(answer, ensure_ascii=False))
        out.write("\n")


if __name__ == "__main__":
    main()
