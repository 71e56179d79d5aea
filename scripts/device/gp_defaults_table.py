#!/usr/bin/env python3
"""The table of scripts/device/gp-defaults.sh's rows: per cell, the median wall seconds (and
range) of each glevo variant and of EvoGP's pipeline, and their ratios; then the cold rows.
    python3 scripts/device/gp_defaults_table.py OUTDIR"""
import json
import statistics
import sys

out = sys.argv[1]
rows = [json.loads(l) for l in open(out + "/glevo.jsonl") if l.strip()]
evogp = [json.loads(l) for l in open(out + "/evogp.jsonl") if l.strip().startswith("{")] \
    if __import__("os").path.exists(out + "/evogp.jsonl") else []


def cell_of(r):
    return (r["pop"], r["cases"])


def walls(variant, cell):
    return [r["wall"] for r in rows if r["variant"] == variant and cell_of(r) == cell]


def fmt(ws):
    if not ws:
        return "-"
    return "%.3f (%.3f-%.3f)" % (statistics.median(ws), min(ws), max(ws))


cells = sorted({cell_of(r) for r in rows if r["variant"] == "defaults"})
print("| programs x cases | EvoGP pipeline | glevo compute, EvoGP's algorithm | glevo compute, "
      "defaults | glevo fragment, defaults | defaults vs EvoGP | defaults / EvoGP's algorithm |")
print("|---|---:|---:|---:|---:|---:|---:|")
for c in cells:
    e = [r["seconds"] for r in evogp if (r["pop"], r["cases"]) == c]
    d, a, f = walls("defaults", c), walls("evogp-algorithm", c), walls("fragment", c)
    vs = "%.2fx faster" % (statistics.median(e) / statistics.median(d)) if e and d else "-"
    ratio = "%.2f" % (statistics.median(d) / statistics.median(a)) if d and a else "-"
    print("| %d x %d | %s | %s | %s | %s | %s | %s |" % (c[0], c[1], fmt(e), fmt(a), fmt(d), fmt(f), vs, ratio))
print()
for r in rows:
    if r["variant"].startswith(("cold", "warm-")):
        run = r.get("run") or {}
        print("%s %d x %d: %.2f s wall, %s s compiling (%s programs)" % (
            r["variant"], r["pop"], r["cases"], r["wall"], run.get("compile_seconds"),
            run.get("programs_built")))
