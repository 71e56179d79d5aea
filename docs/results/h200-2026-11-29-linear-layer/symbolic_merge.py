#!/usr/bin/python3
"""SRBench's symbolic verdicts for a device call's runs (run.py --skip-symbolic): a run whose
SymPy string equals that of the same run (target, run) in an earlier checked runs.csv takes its
verdict; the others are checked (run.py's check_symbolic: SymPy, 10 s a model). Rows in halves
on two processes (PART 0/2, 1/2), written to OUT; run.py --summary-only reads them back.
    /usr/bin/python3 symbolic_merge.py NEW_RUNS OLD_RUNS OUT PART"""
import csv
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "scripts", "srbench"))
import run as srrun  # noqa: E402

new_path, old_path, out_path, part = sys.argv[1:5]
k, parts = (int(v) for v in part.split("/"))
old = {(r["target"], r["run"]): r for r in csv.DictReader(open(old_path))}
rows = [r for i, r in enumerate(csv.DictReader(open(new_path))) if i % parts == k]
todo = []
for r in rows:
    o = old.get((r["target"], r["run"]))
    if o is not None and o.get("sympy") == r.get("sympy") and o.get("symbolic", "") != "":
        r["symbolic"] = o["symbolic"]
    else:
        todo.append(r)
print(f"part {part}: {len(rows) - len(todo)} verdicts taken, {len(todo)} to check", flush=True)
srrun.check_symbolic(todo)
srrun.write_rows(out_path, rows)
