#!/usr/bin/env python3
"""The python-liquid side of the BuntingTemplates benchmark.

Usage: liquid_bench.py DIR [ROUND]

Reads the workload bunting-templates-bench wrote to DIR (users.ndjson,
cards.json), parses the card's two templates once (in standard Liquid
syntax: python-liquid has no Braze `${...}`), and times rendering them for
every user, each user's attributes given as the render's variables. Writes
DIR/python-ROUND.json and prints the numbers.
"""

import json
import sys
import time
from importlib.metadata import version

from liquid import Environment


def main() -> None:
    directory = sys.argv[1]
    round_number = sys.argv[2] if len(sys.argv) > 2 else "1"
    with open(f"{directory}/cards.json", encoding="utf-8") as handle:
        cards = json.load(handle)
    with open(f"{directory}/users.ndjson", encoding="utf-8") as handle:
        users = [json.loads(line) for line in handle if line.strip()]

    env = Environment()
    title = env.from_string(cards["standard"]["title"])
    description = env.from_string(cards["standard"]["description"])

    def render_all(batch):
        written = 0
        for user in batch:
            written += len(title.render(**user).encode("utf-8"))
            written += len(description.render(**user).encode("utf-8"))
        return written

    render_all(users[:1000])  # warm-up, untimed
    clock = time.perf_counter
    start = clock()
    written = render_all(users)
    per_card = (clock() - start) / len(users)
    print(f"python-liquid  {len(users)} cards: {per_card * 1e6:.2f} µs a card (title and description), {written} bytes")

    start = clock()
    for _ in range(200):
        env.from_string(cards["standard"]["title"])
        env.from_string(cards["standard"]["description"])
    per_parse = (clock() - start) / 400
    print(f"python-liquid  parse: {per_parse * 1e6:.2f} µs a template")

    with open(f"{directory}/python-{round_number}.json", "w", encoding="utf-8") as handle:
        json.dump({"perCard": per_card, "bytes": written, "perParse": per_parse, "version": version("python-liquid")}, handle)


if __name__ == "__main__":
    main()
