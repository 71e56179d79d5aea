#!/usr/bin/python3
"""A portfolio of searches emulated from srbench runs (scripts/srbench/run.py) on the same
targets and data seeds: for each (target, run) the row whose printed model has the lowest
training MSE, as glevo's portfolio picks (src/gp/sr/portfolio.c; ties to the earlier search).

usage: scripts/srbench/portfolio.py A/runs.csv B/runs.csv [C/runs.csv ...]
Prints the exact recoveries, how often each search after A was picked, the median test R^2
and the exact recoveries per target."""
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
    searches = [load(path) for path in sys.argv[1:]]
    exact, runs, picked, r2 = collections.Counter(), 0, collections.Counter(), []
    for key in searches[0]:
        rows = [s.get(key) for s in searches]
        if None in rows:
            continue
        which = min(range(len(rows)), key=lambda i: (train_mse(rows[i]), i))
        pick = rows[which]
        picked[which] += 1
        runs += 1
        exact[key[0]] += pick["exact"] == "1"
        try:
            r2.append(float(pick["test_r2"]))
        except ValueError:
            pass
    total = sum(exact.values())
    print(f"{total}/{runs} = {100 * total / max(runs, 1):.1f} % exact, picked "
          f"{' '.join(str(picked[i]) for i in range(len(searches)))}, "
          f"median test R^2 {statistics.median(r2) if r2 else float('nan'):.3f}")
    print(" ".join(f"{t}:{exact[t]}" for t in sorted(exact, key=lambda s: int(s.split("-")[-1]))))


if __name__ == "__main__":
    main()
