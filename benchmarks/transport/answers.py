#!/usr/bin/env python3
"""Turns the replies a server gave to the generated requests into what the
benchmark checks and the baselines answer with:

- EXPECT: each request's exact result, one a line (loadgen --expect-file);
- ANSWERS: {"results": [distinct results], "answers": {"<flagKey>
  <targetingKey>": index}} (baseline.c and peer_stdlib.py --answers).

With --same-as OTHER, the replies must be OTHER's (another server's replies
to the same requests, in the same order), result for result: the answers of
a server that evaluates on its own (peer_datalogic.py) vouch for Bunting's.

    answers.py REQUESTS REPLIES EXPECT ANSWERS [--same-as OTHER]
"""
import json
import sys


def results(path):
    out = []
    for line in open(path, encoding="utf-8"):
        if line.strip():
            reply = json.loads(line)
            if "result" not in reply:
                sys.exit(f"answers: an error reply: {line[:300]}")
            out.append(json.dumps(reply["result"], separators=(",", ":"), ensure_ascii=False))
    return out


def main():
    requests, replies, expect, answers = sys.argv[1:5]
    params = [json.loads(line) for line in open(requests, encoding="utf-8") if line.strip()]
    mine = results(replies)
    if len(mine) != len(params):
        sys.exit(f"answers: {len(mine)} replies to {len(params)} requests")
    if "--same-as" in sys.argv:
        other = results(sys.argv[sys.argv.index("--same-as") + 1])
        differ = [i for i, (a, b) in enumerate(zip(mine, other)) if a != b]
        if len(other) != len(mine) or differ:
            i = differ[0] if differ else min(len(mine), len(other))
            sys.exit(f"answers: {len(differ)} results differ from the other server's ({len(other)} replies); "
                     f"the first, line {i + 1}: {params[i] if i < len(params) else ''}\n  {mine[i] if i < len(mine) else ''}"
                     f"\n  {other[i] if i < len(other) else ''}")
    index, distinct, table = {}, [], {}
    for p, text in zip(params, mine):
        if text not in index:
            index[text] = len(distinct)
            distinct.append(json.loads(text))
        table[f"{p['flagKey']} {p['context']['targetingKey']}"] = index[text]
    if len(table) != len(params):
        sys.exit("answers: two requests share a flag key and targeting key")
    with open(expect, "w", encoding="utf-8") as f:
        f.write("\n".join(mine) + "\n")
    with open(answers, "w", encoding="utf-8") as f:
        json.dump({"results": distinct, "answers": table}, f, separators=(",", ":"), ensure_ascii=False)
    print(f"{len(mine):,} results, {len(distinct)} distinct", file=sys.stderr)


if __name__ == "__main__":
    main()
