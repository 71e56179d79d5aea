#!/usr/bin/python3
"""Nguyen symbolic-regression suite (Uy, Hoai, O'Neill, McKay, Galvan-Lopez 2011, "Semantically-
based crossover in genetic programming", GPEM 12(2), Table 2; the definitions as reprinted by
McDermott et al. 2012, "Genetic programming needs better benchmarks", GECCO): 12 targets, 20
training points drawn uniformly from the range, a separate 1000-point test set from the same
range. Runs `glevo gp` on each target and seed and records exact recovery (training and test MSE
below 1e-10, the criterion of issue 26) and test R^2.

usage: scripts/symreg/nguyen.py GLEVO OUT_DIR [--seeds N] [--pop P] [--generations G]
                                [--targets nguyen-1,...] [-- extra glevo gp options]
Writes OUT_DIR/runs.csv (one row per run) and prints a summary per target and overall."""
import csv
import json
import os
import subprocess
import sys

import numpy as np

TARGETS = [
    # name, vars, low, high, function of X (shape vars x n)
    ("nguyen-1", 1, -1, 1, lambda x: x[0] ** 3 + x[0] ** 2 + x[0]),
    ("nguyen-2", 1, -1, 1, lambda x: x[0] ** 4 + x[0] ** 3 + x[0] ** 2 + x[0]),
    ("nguyen-3", 1, -1, 1, lambda x: x[0] ** 5 + x[0] ** 4 + x[0] ** 3 + x[0] ** 2 + x[0]),
    ("nguyen-4", 1, -1, 1, lambda x: sum(x[0] ** k for k in range(1, 7))),
    ("nguyen-5", 1, -1, 1, lambda x: np.sin(x[0] ** 2) * np.cos(x[0]) - 1),
    ("nguyen-6", 1, -1, 1, lambda x: np.sin(x[0]) + np.sin(x[0] + x[0] ** 2)),
    ("nguyen-7", 1, 0, 2, lambda x: np.log(x[0] + 1) + np.log(x[0] ** 2 + 1)),
    ("nguyen-8", 1, 0, 4, lambda x: np.sqrt(x[0])),
    ("nguyen-9", 2, 0, 1, lambda x: np.sin(x[0]) + np.sin(x[1] ** 2)),
    ("nguyen-10", 2, 0, 1, lambda x: 2 * np.sin(x[0]) * np.cos(x[1])),
    ("nguyen-11", 2, 0, 1, lambda x: x[0] ** x[1]),
    ("nguyen-12", 2, 0, 1, lambda x: x[0] ** 4 - x[0] ** 3 + x[1] ** 2 / 2 - x[1]),
]


def write(path, x, y):
    names = [f"x{i + 1}" for i in range(x.shape[0])] + ["y"]
    np.savetxt(path, np.column_stack([*x, y]), delimiter=",", header=",".join(names),
               comments="", fmt="%.9g")


def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        extra = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    glevo, out = args[0], args[1]
    opts = {"--seeds": 5, "--pop": 2000, "--generations": 100}
    for k in opts:
        if k in args:
            opts[k] = int(args[args.index(k) + 1])
    only = args[args.index("--targets") + 1].split(",") if "--targets" in args else None
    os.makedirs(out, exist_ok=True)
    rows = []
    for name, nv, lo, hi, f in TARGETS:
        if only and name not in only:
            continue
        for seed in range(1, opts["--seeds"] + 1):
            rng = np.random.default_rng(1000 + seed)  # data differ by seed, like the protocol
            xtr = rng.uniform(lo, hi, (nv, 20)).astype(np.float32)
            xte = rng.uniform(lo, hi, (nv, 1000)).astype(np.float32)
            tr, te = os.path.join(out, f"{name}-train.csv"), os.path.join(out, f"{name}-test.csv")
            write(tr, xtr, f(xtr.astype(np.float64)))
            write(te, xte, f(xte.astype(np.float64)))
            cmd = [glevo, "gp", "--data", tr, "--test", te, "--backend", "cpu", "--threads", "1",
                   "--metric", "mse", "--pop", str(opts["--pop"]), "--generations",
                   str(opts["--generations"]), "--seed", str(seed), "--json", "--quiet",
                   "--target-error", "1e-12", *extra]
            res = subprocess.run(cmd, capture_output=True, text=True)
            if res.returncode != 0:
                sys.exit(f"{' '.join(cmd)}: {res.stderr.strip()}")
            j = json.loads(res.stdout)
            exact = j["best_fitness"] < 1e-10 and j["test_error"] < 1e-10
            rows.append({"target": name, "seed": seed, "train_mse": j["best_fitness"],
                         "test_mse": j["test_error"], "test_r2": j["test_r2"],
                         "exact": int(exact), "nodes": j["best_nodes"],
                         "generations": j["generations"], "seconds": j["seconds"],
                         "program": j["best_program"]})
            print(f"{name} seed {seed}: exact {int(exact)} test_r2 {j['test_r2']:.6f} "
                  f"nodes {j['best_nodes']} {j['seconds']:.1f} s", flush=True)
    with open(os.path.join(out, "runs.csv"), "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print("target      exact   median test R^2")
    for name, *_ in TARGETS:
        r = [x for x in rows if x["target"] == name]
        if not r:
            continue
        print(f"{name:11s} {sum(x['exact'] for x in r)}/{len(r)}   "
              f"{np.median([x['test_r2'] for x in r]):.6f}")
    ex = sum(x["exact"] for x in rows)
    print(f"overall     {ex}/{len(rows)} = {100.0 * ex / len(rows):.1f} %   median test R^2 "
          f"{np.median([x['test_r2'] for x in rows]):.6f}")


if __name__ == "__main__":
    main()
