#!/usr/bin/env python3
import re
import sys

ROW = re.compile(r"^\s*\|.*\|\s*$")


def fmt(block):
    rows = [[c.strip() for c in r.strip().strip("|").split("|")] for r in block]
    width = [max(len(r[i]) if i < len(r) else 0 for r in rows) for i in range(max(map(len, rows)))]
    out = []
    for n, r in enumerate(rows):
        cells = []
        for i, w in enumerate(width):
            c = r[i] if i < len(r) else ""
            if n == 1 and set(c) <= set(":-"):
                left, right = c.startswith(":"), c.endswith(":")
                c = (":" if left else "-") + "-" * max(1, w - 2) + (":" if right else "-")
            cells.append(c.ljust(w))
        out.append("| " + " | ".join(cells) + " |")
    return out


def main(paths):
    for p in paths:
        lines = open(p, encoding="utf-8").read().split("\n")
        out, block = [], []
        for line in lines + [""]:
            if ROW.match(line):
                block.append(line)
                continue
            if block:
                out.extend(fmt(block))
                block = []
            out.append(line)
        open(p, "w", encoding="utf-8").write("\n".join(out[:-1]))


if __name__ == "__main__":
    main(sys.argv[1:])
