#!/usr/bin/python3
"""A portfolio of two searches emulated from two srbench runs (scripts/srbench/run.py) on the
same targets and data seeds: for each (target, run) the row whose printed model has the lower
training MSE, as glevo's portfolio picks (src/gp/portfolio.c; ties to A).

usage: scripts/srbench/portfolio.py A/runs.csv B/runs.csv
Prints the exact recoveries, how often B was picked, the median test R^2 and the exact
recoveries per target."""
import collections
import csv
import statistics
import sys


def load(path):
    return {(r["target"], r["run"]): r for r in csv.DictReader(open(path))}


def train_mse(row):
    try:
        return float(row["train_mse"])
    except ValueError:
        return float("inf")


def main():
    a, b = load(sys.argv[1]), load(sys.argv[2])
    exact, runs, picked_b, r2 = collections.Counter(), 0, 0, []
    for key, row_a in a.items():
        row_b = b.get(key)
        if row_b is None:
            continue
        pick = row_b if train_mse(row_b) < train_mse(row_a) else row_a
        picked_b += pick is row_b
        runs += 1
        exact[key[0]] += pick["exact"] == "1"
        try:
            r2.append(float(pick["test_r2"]))
        except ValueError:
            pass
    total = sum(exact.values())
    print(f"{total}/{runs} = {100 * total / max(runs, 1):.1f} % exact, B picked {picked_b}, "
          f"median test R^2 {statistics.median(r2) if r2 else float('nan'):.3f}")
    print(" ".join(f"{t}:{exact[t]}" for t in sorted(exact, key=lambda s: int(s.split("-")[-1]))))


if __name__ == "__main__":
    main()
