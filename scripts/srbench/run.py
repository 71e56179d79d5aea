#!/usr/bin/python3
"""Symbolic-regression benchmark harness for `glevo gp` (issue 26's measurement protocol).

For each suite, target and run r (r = 1..--seeds): draws the target's training and test sets
from data seed --data-seed + r (scripts/srbench/suites.py, the published definitions), runs
  GLEVO gp --data train.csv --test test.csv --seed (--seed + r) --json --quiet
           --backend cpu --threads 1 --pop P --generations G [extra options after --]
and scores the printed best program itself (scripts/srbench/sexpr.py; `glevo gp-eval` where it
prints an operator that file does not know): training and test MSE and R^2. Exact recovery is
issue 26's: training and test MSE both under 1e-10. Where a target's truth is known as a
formula (the Feynman suite), SRBench's checks too (symbolic.py): a symbolic solution, and an
accuracy solution (test R^2 > 0.999); --noise LEVEL adds SRBench's noise to the training
target (sd = LEVEL x its RMS). Where the suite states the truth, its node count as glevo would
write it (truth_nodes, truth_size.py): the summary counts the exact runs' and symbolic
solutions' printed models of more than twice as many nodes.

usage: scripts/srbench/run.py [--suite nguyen,keijzer,friedman1] [--glevo build/glevo]
          [--out DIR] [--seeds N] [--seed BASE] [--data-seed BASE] [--jobs J] [--quick]
          [--pop P] [--generations G] [--targets a,b] [--label TEXT] [--timeout S]
          [--noise LEVEL] [--summary-only] [-- extra glevo gp options]
Writes DIR/runs.csv (one row per run), DIR/summary.md (a table per suite) and DIR/data/.
--quick: population 500 x 20 generations and 2 seeds unless given (a smoke run)."""
import argparse
import concurrent.futures as cf
import csv
import datetime
import json
import os
import platform
import subprocess
import sys
import threading
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sexpr  # noqa: E402
import suites  # noqa: E402

EXACT_MSE = 1e-10
FIELDS = ["suite", "target", "label", "run", "seed", "data_seed", "status", "exact",
          "train_mse", "test_mse", "train_r2", "test_r2", "nodes", "truth_nodes", "seconds",
          "wall_seconds", "generations", "metric", "glevo_train_error", "glevo_test_error",
          "glevo_test_r2", "scored_by", "truth_test_r2", "ols_test_r2", "noise", "symbolic",
          "accurate", "program", "sympy", "identifiers"]
ACCURATE_R2 = 0.999


def ols_r2(xtr, ytr, xte, yte):
    """Test R^2 of ordinary least squares with an intercept fitted on the training set."""
    a = np.column_stack([np.ones(xtr.shape[1]), xtr.T])
    coef, *_ = np.linalg.lstsq(a, ytr, rcond=None)
    return sexpr.r2(np.column_stack([np.ones(xte.shape[1]), xte.T]) @ coef, yte)


def prepare(t, data_seed, data_dir, noise=0.0):
    """Writes (once) and returns the target's data files and the references on them."""
    base = os.path.join(data_dir, f"{t.name}-d{data_seed}")
    tr, te = base + (f"-n{noise:g}" if noise else "") + "-train.csv", base + "-test.csv"
    if suites.is_grid(t.test) and not t.noise:
        # A grid test set is the same for every data seed: one file (Keijzer-11..15's grids
        # have 361 201 rows).
        te = os.path.join(data_dir, f"{t.name}-test.csv")
    xtr, ytr, xte, yte, clean = suites.draw(t, data_seed, noise)
    for path, x, y in ((tr, xtr, ytr), (te, xte, yte)):
        if not os.path.exists(path):  # written whole under a name of this thread's, then renamed
            tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
            suites.write_csv(tmp, x, y, t.names)
            os.replace(tmp, path)
    ref = {"truth_test_r2": sexpr.r2(clean, yte), "ols_test_r2": ols_r2(xtr, ytr, xte, yte)}
    return tr, te, (xtr.T, ytr, xte.T, yte), ref


def gp_eval(glevo, program, path):
    """MSE of a program on a CSV by glevo's own interpreter (CPU backend)."""
    prog = f"{path}.{os.getpid()}.{threading.get_ident()}.prog"
    with open(prog, "w") as fh:
        fh.write(program + "\n")
    try:
        res = subprocess.run([glevo, "gp-eval", "--programs", prog, "--data", path, "--backend",
                              "cpu", "--threads", "1", "--metric", "mse", "--json"],
                             capture_output=True, text=True)
        if res.returncode != 0:
            raise RuntimeError(res.stderr.strip())
        return json.loads(res.stdout)["errors"][0]
    finally:
        os.remove(prog)


def score(glevo, program, data, tr, te):
    """train_mse, test_mse, train_r2, test_r2, scored_by for the printed program."""
    xtr, ytr, xte, yte = data
    try:
        tree = sexpr.parse(program)
        ptr, pte = sexpr.evaluate(tree, xtr), sexpr.evaluate(tree, xte)
        return (sexpr.mse(ptr, ytr), sexpr.mse(pte, yte), sexpr.r2(ptr, ytr), sexpr.r2(pte, yte),
                "python")
    except sexpr.UnknownOperator:
        mtr, mte = gp_eval(glevo, program, tr), gp_eval(glevo, program, te)
        r2 = lambda m, y: 1.0 - m * len(y) / float(np.sum((y - y.mean()) ** 2))
        return mtr, mte, r2(mtr, ytr), r2(mte, yte), "gp-eval"


def one_run(job):
    a, t, suite, run = job["args"], job["target"], job["suite"], job["run"]
    seed, data_seed = a.seed + run, a.data_seed + run
    tr, te, data, ref = prepare(t, data_seed, job["data_dir"], a.noise)
    cmd = [a.glevo, "gp", "--data", tr, "--test", te, "--seed", str(seed), "--json", "--quiet"]
    if "--backend" not in a.extra:
        cmd += ["--backend", "cpu", "--threads", "1"]
    cmd += ["--pop", str(a.pop), "--generations", str(a.generations), *a.extra]
    row = {"order": job["order"], "suite": suite, "target": t.name, "label": a.label, "run": run,
           "seed": seed,
           "data_seed": data_seed, "exact": 0, "noise": a.noise, **ref}
    t0 = time.monotonic()
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
    except subprocess.TimeoutExpired:
        return {**row, "status": f"timeout after {a.timeout} s", "wall_seconds": a.timeout}
    row["wall_seconds"] = round(time.monotonic() - t0, 3)
    if res.returncode != 0:
        err = (res.stderr.strip().splitlines() or ["?"])[-1]
        return {**row, "status": f"exit {res.returncode}: {err}"}
    j = json.loads(res.stdout)
    program = j["best_program"]
    train_mse, test_mse, train_r2, test_r2, by = score(a.glevo, program, data, tr, te)
    return {**row, "status": "ok", "exact": int(train_mse < EXACT_MSE and test_mse < EXACT_MSE),
            "train_mse": train_mse, "test_mse": test_mse, "train_r2": train_r2,
            "test_r2": test_r2, "nodes": j["best_nodes"], "seconds": j["seconds"],
            "generations": j["generations"], "metric": j.get("metric", ""),
            "glevo_train_error": j["best_fitness"], "glevo_test_error": j.get("test_error", ""),
            "glevo_test_r2": j.get("test_r2", ""), "scored_by": by, "program": program,
            "sympy": j.get("best_sympy", ""), "identifiers": " ".join(j.get("identifiers", [])),
            "accurate": int(test_r2 > ACCURATE_R2)}


SYMBOLIC_MIN_R2 = 0.99
# Models longer than this (the linear layer's sums of hundreds of terms' nodes) are left
# undecided without SymPy, whose parse and simplify of them outlast any time limit.
SYMBOLIC_MAX_NODES = 400


def check_symbolic(rows):
    """SRBench's symbolic check of each run whose target has a formula (in this thread: SymPy's
    time limit is an alarm). A model with test R^2 below SYMBOLIC_MIN_R2 is no symbolic solution
    (equal to the truth up to a constant, or a constant factor, after rounding its constants to
    3 decimals, it would fit the test set nearly exactly): it is not given to SymPy, whose
    simplify can take minutes on a large wrong model. A check SymPy does not finish in 10 s is
    left undecided (empty) and counts as no solution, as is a model of more than
    SYMBOLIC_MAX_NODES nodes without asking."""
    import symbolic  # SymPy, only where the checks run
    for r in rows:
        t = suites.target(r["target"])
        if t.formula and r.get("status") == "ok" and r.get("sympy"):
            if _f(r.get("test_r2")) < SYMBOLIC_MIN_R2:
                r["symbolic"] = 0
                continue
            if _f(r.get("nodes")) > SYMBOLIC_MAX_NODES:
                r["symbolic"] = ""
                continue
            # The inputs as the model names them (glevo's list; a row of a glevo without
            # it: the names as they are, right wherever they are identifiers already).
            idents = (r.get("identifiers") or "").split() or t.names
            verdict = symbolic.symbolic_solution(r["sympy"], t.formula, t.names, idents, seconds=10)
            r["symbolic"] = "" if verdict is None else int(verdict)


def truth_nodes(name):
    """Nodes of the target's truth as glevo would write it (truth_size.py), or "" where the
    suite states no truth or SymPy is missing (a machine without it: --summary-only fills it)."""
    try:
        import truth_size  # SymPy, only where it is installed
    except ImportError:
        return ""
    n = truth_size.truth_nodes(name)
    return "" if n is None else n


def fill_truth_nodes(rows):
    """truth_nodes of the rows without it (an older harness's rows, or a machine's without
    SymPy), from the target's name."""
    for r in rows:
        if r.get("truth_nodes", "") == "":
            r["truth_nodes"] = truth_nodes(r["target"])


def write_rows(path, rows):
    """The rows as CSV, written whole under another name, then renamed over path."""
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=FIELDS)
        w.writeheader()
        w.writerows({k: r.get(k, "") for k in FIELDS} for r in rows)
    os.replace(tmp, path)


def _f(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("nan")


def median(rows, key):
    v = [_f(r[key]) for r in rows if str(r.get("status")) == "ok"]
    return float(np.median(v)) if v else float("nan")


OVERSIZE = 2  # the goal: an exact recovery prints a model of at most twice the truth's nodes


def _oversized(what, rows):
    """How many of rows print a model of more than OVERSIZE x its truth's nodes."""
    ratios = [_f(r["nodes"]) / _f(r["truth_nodes"]) for r in rows]
    if not ratios:
        return f"{what} 0 of 0"
    return (f"{what} {sum(q > OVERSIZE for q in ratios)} of {len(ratios)} "
            f"(median ratio {np.median(ratios):.2f})")


def size_line(rows):
    """The suite's line on the printed models' size against the truth's (truth_size.py), among
    the exact runs and, where SymPy judged them, the symbolic solutions; None where the suite
    states no truth."""
    known = [r for r in rows
             if str(r.get("status")) == "ok" and str(r.get("truth_nodes", "")) != ""]
    if not known:
        return None
    parts = [_oversized("exact runs", [r for r in known if str(r["exact"]) == "1"])]
    if any(str(r.get("symbolic", "")) in ("0", "1") for r in rows):
        parts.append(_oversized("symbolic solutions",
                                [r for r in known if str(r.get("symbolic")) == "1"]))
    return f"Printed models over {OVERSIZE} x the truth's nodes: {'; '.join(parts)}."


def summary(rows, header):
    """Markdown: a table per suite, one line per target and one for the whole suite."""
    out = [header, ""]
    for suite in dict.fromkeys(r["suite"] for r in rows):
        srows = [r for r in rows if r["suite"] == suite]
        out += [f"### {suite}", "",
                "| target | runs | failed | exact | exact % | symbolic % | R^2 > 0.999 % "
                "| median test R^2 | median nodes | median s | OLS test R^2 | true f test R^2 |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        groups = [(n, [r for r in srows if r["target"] == n])
                  for n in dict.fromkeys(r["target"] for r in srows)]
        for name, g in groups + [("**all**", srows)]:
            ex = sum(int(r["exact"]) for r in g)
            bad = sum(1 for r in g if r["status"] != "ok")
            judged = [r for r in g if str(r.get("symbolic", "")) in ("0", "1")]
            sym = (f"{100.0 * sum(int(r['symbolic']) for r in judged) / len(g):.1f}"
                   if judged else "-")
            acc = 100.0 * sum(int(r.get("accurate") or 0) for r in g) / len(g)
            out.append(f"| {name} | {len(g)} | {bad} | {ex} | {100.0 * ex / len(g):.1f} | "
                       f"{sym} | {acc:.1f} | "
                       f"{median(g, 'test_r2'):.4f} | {median(g, 'nodes'):.0f} | "
                       f"{median(g, 'seconds'):.2f} | {median(g, 'ols_test_r2'):.4f} | "
                       f"{median(g, 'truth_test_r2'):.4f} |")
        line = size_line(srows)
        out += ["", line] if line else []
        out.append("")
    return "\n".join(out)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    extra = []
    if "--" in argv:
        extra, argv = argv[argv.index("--") + 1:], argv[:argv.index("--")]
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--suite", default="nguyen", help=f"comma list of {','.join(suites.SUITES)}")
    p.add_argument("--glevo", default="build/glevo")
    p.add_argument("--out", default="srbench-out")
    p.add_argument("--seeds", type=int, help="runs per target (default 30; --quick: 2)")
    p.add_argument("--seed", type=int, default=0, help="glevo --seed of run r is BASE + r")
    p.add_argument("--data-seed", type=int, default=0, help="run r's data seed is BASE + r")
    p.add_argument("--jobs", type=int, default=1, help="glevo processes at once")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--pop", type=int)
    p.add_argument("--generations", type=int)
    p.add_argument("--targets", help="comma list of target names (default: the whole suite)")
    p.add_argument("--label", default="", help="a name for this glevo in the rows")
    p.add_argument("--timeout", type=float, help="seconds per glevo run")
    p.add_argument("--noise", type=float, default=0.0,
                   help="SRBench's noise on the training target: sd = LEVEL x its RMS")
    p.add_argument("--summary-only", action="store_true",
                   help="re-summarize DIR/runs.csv (and make the symbolic checks not yet made)")
    p.add_argument("--skip-symbolic", action="store_true",
                   help="leave SymPy's checks to a later --summary-only (a machine without "
                        "SymPy); with --summary-only: summarize the verdicts as they are")
    a = p.parse_args(argv)
    a.extra = extra
    a.seeds = a.seeds or (2 if a.quick else 30)
    a.pop = a.pop or (500 if a.quick else 2000)
    a.generations = a.generations or (20 if a.quick else 100)
    os.makedirs(a.out, exist_ok=True)
    runs_path, summary_path = os.path.join(a.out, "runs.csv"), os.path.join(a.out, "summary.md")
    if a.summary_only:
        if not os.path.exists(runs_path):
            runs_path = os.path.join(a.out, "runs.partial.csv")
        with open(runs_path) as fh:
            rows = list(csv.DictReader(fh))
        fill_truth_nodes(rows)
        if not a.skip_symbolic and any(r.get("sympy") and r.get("symbolic", "") == ""
                                       for r in rows):
            check_symbolic([r for r in rows if r.get("symbolic", "") == ""])
            write_rows(runs_path, rows)
        header = open(summary_path).read().split("\n\n")[0] if os.path.exists(summary_path) else ""
        with open(summary_path, "w") as fh:
            fh.write(summary(rows, header) + "\n")
        print(open(summary_path).read())
        return 0
    names = a.suite.split(",")
    for n in names:
        if n not in suites.SUITES:
            print(f"srbench: unknown suite '{n}' (known: {', '.join(suites.SUITES)})",
                  file=sys.stderr)
            return 2
    only = set(a.targets.split(",")) if a.targets else None
    known = {t.name for n in names for t in suites.SUITES[n]}
    if only and only - known:
        print(f"srbench: unknown target '{sorted(only - known)[0]}' in suites {a.suite}",
              file=sys.stderr)
        return 2
    if not os.access(a.glevo, os.X_OK):
        print(f"srbench: glevo binary '{a.glevo}' is not executable", file=sys.stderr)
        return 2
    data_dir = os.path.join(a.out, "data")
    os.makedirs(data_dir, exist_ok=True)
    # Run by run across all targets, so that a run stopped part way has every target with a
    # few seeds rather than a few targets with every seed; rows are written per target.
    chosen = [(n, t) for n in names for t in suites.SUITES[n] if not only or t.name in only]
    jobs = [{"args": a, "suite": n, "target": t, "run": r, "data_dir": data_dir, "order": k}
            for r in range(1, a.seeds + 1) for k, (n, t) in enumerate(chosen)]
    started = datetime.datetime.now(datetime.timezone.utc)
    rows = [None] * len(jobs)
    # Rows also go to runs.partial.csv as they finish, so that a run stopped part way keeps
    # what it measured (--summary-only summarizes it).
    partial = open(os.path.join(a.out, "runs.partial.csv"), "w", newline="")
    pw = csv.DictWriter(partial, fieldnames=FIELDS)
    pw.writeheader()
    with cf.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futures = {ex.submit(one_run, j): i for i, j in enumerate(jobs)}
        for done, fut in enumerate(cf.as_completed(futures), 1):
            i = futures[fut]
            rows[i] = r = fut.result()
            pw.writerow({k: r.get(k, "") for k in FIELDS})
            partial.flush()
            print(f"[{done}/{len(jobs)}] {r['target']} run {r['run']}: {r['status']} "
                  f"exact {r['exact']} test R^2 {_f(r.get('test_r2')):.6f} "
                  f"nodes {r.get('nodes', '')} {_f(r.get('wall_seconds')):.1f} s", flush=True)
    rows.sort(key=lambda r: (r["order"], r["run"]))
    fill_truth_nodes(rows)
    if not a.skip_symbolic:
        check_symbolic(rows)
    write_rows(runs_path, rows)
    partial.close()
    os.remove(partial.name)
    header = (f"glevo `{a.glevo}`{f' ({a.label})' if a.label else ''}; "
              f"{started:%Y-%m-%d %H:%M} UTC on {platform.node()} ({os.cpu_count()} CPUs); "
              f"pop {a.pop} x {a.generations} generations, {a.seeds} runs per target "
              f"(glevo seeds {a.seed + 1}..{a.seed + a.seeds}, data seeds "
              f"{a.data_seed + 1}..{a.data_seed + a.seeds}); extra options: "
              f"`{' '.join(a.extra) or 'none'}`; noise {a.noise:g}; exact: training and test MSE < {EXACT_MSE:g}; "
              f"symbolic: SRBench's check (symbolic.py); R^2 > 0.999: SRBench's accuracy solution")
    with open(summary_path, "w") as fh:
        fh.write(summary(rows, header) + "\n")
    print(open(summary_path).read())
    return 0


if __name__ == "__main__":
    sys.exit(main())
