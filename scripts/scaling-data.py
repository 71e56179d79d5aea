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


def cga():
    """Seconds for 1000 generations (camel) against the population: the first calls'
    Table 2 (fragment, CPU cGA, CPU SGA) and the compute sweep of the second."""
    table, in_camel = [], False
    for line in open(os.path.join(FIRST, "cga_table2.md")):
        if line.startswith("**"):
            in_camel = line.strip() == "**camel**"
        cells = [c.strip() for c in line.split("|")]
        if in_camel and len(cells) > 6 and cells[1].isdigit():
            table.append((int(cells[1]), float(cells[3]), float(cells[4]), float(cells[5])))
    sweep = rows(os.path.join(COMPUTE, "cga/cga_sweep.csv"))
    write("cga.csv", [
        ("compute", "compute", 0, [(int(r["individuals"]), float(r["seconds"])) for r in sweep]),
        ("fragment", "fragment", 0, [(n, g) for n, g, _, _ in table]),
        ("CPU cellular GA 1 core", "CPU", 0, [(n, c) for n, _, c, _ in table]),
        ("CPU standard GA 1 core", "CPU", 1, [(n, s) for n, _, _, s in table])])


def dsmga():
    """ms a generation against ell (folded trap at the swept populations): BuildDSM and lossy
    FindClique on each engine (the CPU's FindClique is the original, lossless one)."""
    first = [r for r in rows(os.path.join(FIRST, "dsmga/dsmga_all.csv")) if r["problem"] == "ftrap"]
    new = rows(os.path.join(COMPUTE, "dsmga/dsmga_ftrap_small.csv")) + \
        rows(os.path.join(COMPUTE, "dsmga/dsmga_ftrap_pack.csv"))
    series = []
    for label, engine, dash, key, table, backend in (
            ("BuildDSM compute", "compute", 0, "dsm_gpu_ms", new, "compute"),
            ("BuildDSM fragment", "fragment", 0, "dsm_gpu_ms", new, "fragment"),
            ("BuildDSM CPU", "CPU", 0, "dsm_cpu_ms", first, None),
            ("FindClique lossy compute", "compute", 1, "ils_lossy_gpu_ms", new, "compute"),
            ("FindClique lossy fragment", "fragment", 1, "ils_lossy_gpu_ms", new, "fragment"),
            ("FindClique CPU (original)", "CPU", 1, "ils_cpu_ms", first, None)):
        pts = {}
        for r in table:
            if backend is None or r.get("backend") == backend:
                pts[int(r["ell"])] = float(r[key])
        series.append((label, engine, dash, list(pts.items())))
    write("dsmga.csv", series)


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


def islands():
    """Speedup against islands on the one H100 machine (islands.sh): evaluations a second for
    throughput runs, 1 / seconds to the target for time-to-target runs, at equal total population
    against 1 island of the same section. Ranks share the one GPU, so GPU series fall and CPU
    series (one rank a core) rise; the ideal line is n islands = n times."""
    rows_ = rows(os.path.join(COMPUTE, "islands/islands_speedup.csv"))
    picks = (("cGA CPU throughput 256x256", "CPU", 0, "throughput", "cga", "cpu", "speedup_evals"),
             ("cGA CPU time to target", "CPU", 1, "time-to-target", "cga", "cpu", "speedup_time"),
             ("DE CPU time to target NP 400", "CPU", 2, "time-to-target", "de", "cpu",
              "speedup_time"),
             ("cGA fragment throughput 1024x1024", "fragment", 0, "throughput", "cga",
              "fragment", "speedup_evals"),
             ("cGA compute throughput 1024x1024", "compute", 0, "throughput", "cga", "compute",
              "speedup_evals"),
             ("DE compute time to target NP 3200", "compute", 1, "time-to-target", "de",
              "compute", "speedup_time"))
    series = []
    for label, engine, dash, section, family, backend, column in picks:
        chosen = [r for r in rows_ if r["section"] == section and r["family"] == family
                  and r["backend"] == backend]
        total = max(int(r["total_population"]) for r in chosen)
        pts = [(int(r["islands"]), float(r[column])) for r in chosen
               if int(r["total_population"]) == total]
        series.append((label, engine, dash, pts))
    series.append(("ideal: n islands = n times", "paper", 2, [(1, 1.0), (16, 16.0)]))
    write("islands.csv", series)


def main():
    islands()
    cga()
    de()
    gp()
    dsmga()
    print("scaling-data: wrote", ", ".join(sorted(os.listdir(OUT))), "to", OUT, file=sys.stderr)


if __name__ == "__main__":
    main()
