#!/usr/bin/python3
"""Re-exports recorded symbolic-regression runs with this build: each run's program (a runs.csv
of scripts/srbench/run.py) printed again by glevo_gp_model on the run's own training data (the
printed model, its node count and the time it takes); where the printed program changed, its
errors scored again (run.py's score: exact and accurate anew); where the SymPy string changed,
SRBench's symbolic check run again (10 s a model; --skip-symbolic: left undecided); the
truth's node count (truth_nodes) filled where a row lacks it. With
--layer N the result's linear layer of N terms (glevo_gp_model_layer) goes on top, as a run's
result has it: recorded search models measure the layer without a GPU (the search is the same).
Writes the rows to OUT and prints the counts.
    GLEVO_LIBRARY=build/libglevo.so.0 /usr/bin/python3 scripts/srbench/reexport.py RUNS OUT
        [--glevo build/glevo (scores the changed programs)] [--data-dir /tmp/reexp]
        [--layer N] [--skip-symbolic]"""
import argparse
import csv
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import run as srrun  # noqa: E402
import suites  # noqa: E402
import symbolic  # noqa: E402
from glevo._lib import ffi, lib  # noqa: E402


def printed_model(train_csv, program, layer=0):
    """(sexpr, sympy string, nodes, seconds, identifiers) of glevo_gp_model for program on
    train_csv, with glevo_gp_model_layer's layer of `layer` terms on top where layer > 0; the
    identifiers are the inputs as the SymPy string names them (beta_ for a column beta)."""
    d = ffi.new("glevo_gp_data **")
    assert lib.glevo_gp_data_load_csv(train_csv.encode(), ffi.NULL, d) == 0, \
        ffi.string(lib.glevo_last_error())
    p = ffi.new("glevo_gp_programs **")
    lib.glevo_gp_programs_create(p)
    assert lib.glevo_gp_programs_parse(p[0], program.encode(), b"run", 0) == 0
    prm = ffi.new("glevo_gp_params *")
    prm.metric = lib.GLEVO_GP_MSE
    prm.linear_scaling = -1  # GLEVO_ZERO: the recorded programs carry their own a + b f
    full = ffi.new("glevo_gp_params *", lib.glevo_gp_params_defaults(prm))
    res = ffi.new("glevo_gp_result *")
    t0 = time.time()
    st = lib.glevo_gp_model(full, d[0], p[0], 0, res)
    if st == 0 and layer > 0:
        full.linear_layer = layer
        st = lib.glevo_gp_model_layer(full, d[0], res)
    dt = time.time() - t0
    assert st == 0, ffi.string(lib.glevo_last_error())
    buf = ffi.new("char[256]")
    idents = []
    for v in range(lib.glevo_gp_data_vars(d[0])):
        lib.glevo_gp_data_var_identifier(d[0], v, buf, 256)
        idents.append(ffi.string(buf).decode())
    out = (ffi.string(res.best_sexpr).decode(), ffi.string(res.best_sympy).decode(),
           res.best_nodes, dt, idents)
    lib.glevo_gp_result_free(res)
    lib.glevo_gp_programs_destroy(p[0])
    lib.glevo_gp_data_destroy(d[0])
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs")
    ap.add_argument("out")
    ap.add_argument("--glevo", default="build/glevo")
    ap.add_argument("--data-dir", default="/tmp/reexp")
    ap.add_argument("--layer", type=int, default=0)
    ap.add_argument("--skip-symbolic", action="store_true")
    a = ap.parse_args(argv)
    os.makedirs(a.data_dir, exist_ok=True)
    rows = list(csv.DictReader(open(a.runs)))
    changed = newly = lost = 0
    slowest = 0.0
    for r in rows:
        if r["status"] != "ok" or not r["program"]:
            continue
        t = suites.target(r["target"])
        tr, te, data, _ = srrun.prepare(t, int(r["data_seed"]), a.data_dir, float(r.get("noise") or 0))
        prog, sym, nodes, dt, model_idents = printed_model(tr, r["program"], a.layer)
        slowest = max(slowest, dt)
        r["model_s"], r["nodes"] = dt, nodes
        if prog != r["program"]:  # the printed program scored again on the run's own data
            r["program"] = prog
            trm, tem, trr, ter, _ = srrun.score(a.glevo, prog, data, tr, te)
            r.update(train_mse=trm, test_mse=tem, train_r2=trr, test_r2=ter,
                     exact=int(trm < srrun.EXACT_MSE and tem < srrun.EXACT_MSE),
                     accurate=int(ter > srrun.ACCURATE_R2))
        if sym == r.get("sympy"):
            continue
        changed += 1
        old = r.get("symbolic", "")
        r["sympy"] = sym
        if a.skip_symbolic or srrun._f(r.get("nodes")) > srrun.SYMBOLIC_MAX_NODES:
            r["symbolic"] = ""
        elif srrun._f(r.get("test_r2")) >= srrun.SYMBOLIC_MIN_R2:
            # Rows of an older harness lack the run's identifiers: the data's own, as the
            # model names them (the suite's names would miss beta_ for beta).
            idents = (r.get("identifiers") or "").split() or model_idents
            v = symbolic.symbolic_solution(sym, t.formula, t.names, idents, seconds=10)
            r["symbolic"] = "" if v is None else int(v)
        newly += str(r["symbolic"]) == "1" and old != "1"
        lost += str(r["symbolic"]) != "1" and old == "1"
        print(r["target"], r["run"], old, "->", r["symbolic"], flush=True)
    srrun.fill_truth_nodes(rows)
    with open(a.out, "w", newline="") as f:
        # Rows of an older harness lack columns this one fills (sympy, accurate, ...).
        fields = list(dict.fromkeys(k for r in rows for k in r))
        w = csv.DictWriter(f, fieldnames=fields, restval="")
        w.writeheader()
        w.writerows(rows)
    n = len(rows)
    sym_n = sum(str(r.get("symbolic")) == "1" for r in rows)
    print(f"changed {changed}, newly symbolic {newly}, lost {lost}; symbolic {sym_n} of {n} = "
          f"{100 * sym_n / n:.1f} %")
    print(f"model seconds: max {slowest:.3f}, total "
          f"{sum(float(r.get('model_s') or 0) for r in rows):.2f}")
    print(f"accurate {sum(str(r.get('accurate')) == '1' for r in rows)}, "
          f"exact {sum(str(r.get('exact')) == '1' for r in rows)} of {n}")


if __name__ == "__main__":
    main()
