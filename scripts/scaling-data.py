#!/usr/bin/env python3
"""Assembles the scaling pictures' data (series,x,y[,dash] CSVs under docs/results/scaling/)
from the raw tables the H100 runs left under docs/results/: one CSV per family, fragment vs
compute vs CPU vs the peer, drawn by `glevo bench plot` in scripts/make-pictures.sh.

    python3 scripts/scaling-data.py        (rewrites docs/results/scaling/*.csv)

Every number comes from a file named below; nothing is typed in by hand."""
import csv
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
FIRST = os.path.join(ROOT, "docs/results/h100-2026-11-23")           # fragment and CPU runs
COMPUTE = os.path.join(ROOT, "docs/results/h100-2026-11-23-compute")  # compute runs, peers
OUT = os.path.join(ROOT, "docs/results/scaling")


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


# One colour per engine in every picture.
COLOURS = {"compute": 0, "fragment": 1, "CPU": 2, "peer": 3, "paper": 4}


def write(name, series):
    """series: list of (label, engine, dash, [(x, y), ...]); labels hold no commas."""
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, name), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["series", "x", "y", "dash", "colour"])
        for label, engine, dash, points in series:
            for x, y in sorted(points):
                w.writerow([label, x, "%.6g" % y, dash, COLOURS[engine]])


def de():
    """Seconds a run against NP (shifted sphere, 1e4 D evaluations) for D 10 and 100."""
    compute = [r for r in rows(os.path.join(COMPUTE, "de/tables.csv")) if r["problem"] == "sphere"]
    peers = [json.loads(l) for l in open(os.path.join(COMPUTE, "de/evosax.jsonl"))]
    series = []
    for d, dash in ((10, 1), (100, 0)):
        first = [r for r in rows(os.path.join(FIRST, f"de/de_d{d}.csv")) if r["problem"] == "sphere"]
        for label, engine, source, table in (
                ("compute", "compute", "compute", compute), ("fragment", "fragment", "fragment", compute),
                ("CPU 1 core", "CPU", "cpu", first), ("cudaDE_i GTX 560 (paper)", "paper", "paper", first)):
            pts = [(int(r["pop"]), float(r["seconds_mean"])) for r in table
                   if int(r["dim"]) == d and r["source"] == source]
            if pts:
                series.append((f"{label} D={d}", engine, dash, pts))
        pts = [(p["NP"], p["seconds"]) for p in peers if p["D"] == d]
        series.append((f"evosax lax.scan D={d}", "peer", dash, pts))
    write("de.csv", series)


def gp():
    """GPop/s against cases at 10 000 programs (size 50, regression, exact math)."""
    first = rows(os.path.join(FIRST, "gp/gp.csv"))
    new = rows(os.path.join(COMPUTE, "gp/gp.csv"))
    series = []
    pts = [(int(r["cases"]), float(r["gpops"])) for r in new
           if r["engine"] == "compute" and r["variant"] == "surface" and r["pop"] == "10000"]
    series.append(("compute", "compute", 0, pts))
    for label, colour, dash, engine in (("fragment PPCU", "fragment", 0, "ppcu"),
                                        ("CPU 16 cores", "CPU", 0, "cpu-all"),
                                        ("CPU 1 core", "CPU", 1, "cpu-1")):
        pts = [(int(r["cases"]), float(r["gpops"])) for r in first
               if r["set"] == "regression" and r["engine"] == engine and r["pop"] == "10000"]
        series.append((label, colour, dash, pts))
    evogp = [float(r["gpops"]) for r in new if r["tool"] == "evogp" and r["engine"] == "auto"]
    series.append(("EvoGP auto (its own trees)", "peer", 0, [(10000, max(evogp))] if evogp else []))
    write("gp.csv", series)


def main():
    de()
    gp()
    print("scaling-data: wrote", ", ".join(sorted(os.listdir(OUT))), "to", OUT, file=sys.stderr)


if __name__ == "__main__":
    main()
