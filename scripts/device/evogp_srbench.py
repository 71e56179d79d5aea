#!/usr/bin/env python3
"""EvoGP (a peer, ../shared/peers/evogp) under scripts/srbench's protocol, for the numbers issue 26
asks to set beside glevo's: the same targets and data (scripts/srbench/suites.py, data seed
BASE + r), population 2000 x 100 generations, exact recovery = training and test MSE both under
1e-10. EvoGP runs as its own symbolic-regression example sets it up (src/evogp/sr_test.py: trees
of up to 128 nodes, constants from (-5, 5), layer-leaf probability 0.2, mutation rate 0.2,
survival 0.3, elites 1 %), with glevo's default operators in EvoGP's protected forms
(+ - * loose_div neg sin cos exp loose_log loose_sqrt). Its best tree is scored by EvoGP's own
evaluator in float32 on both sets (MSE and R^2 in float64).

usage: EVOGP_SRC=.peers/evogp/src python3 scripts/device/evogp_srbench.py OUT.csv SUITE[,SUITE]
           SEEDS BASE        (one row per run to OUT.csv, a summary per target on stdout)"""
import csv
import os
import sys
import time

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "srbench"))
sys.path.insert(0, os.environ.get("EVOGP_SRC", ".peers/evogp/src"))
import suites  # noqa: E402
import torch  # noqa: E402
from evogp.algorithm import (DefaultCrossover, DefaultMutation, DefaultSelection,  # noqa: E402
                             GeneticProgramming)
from evogp.pipeline import StandardPipeline  # noqa: E402
from evogp.problem import SymbolicRegression  # noqa: E402
from evogp.tree import Forest, GenerateDescriptor  # noqa: E402

POP, GENERATIONS, EXACT = 2000, 100, 1e-10
FUNCS = ["+", "-", "*", "loose_div", "neg", "sin", "cos", "exp", "loose_log", "loose_sqrt"]
FIELDS = ["suite", "target", "run", "seed", "data_seed", "status", "exact", "train_mse",
          "test_mse", "test_r2", "nodes", "seconds", "program"]


def cuda(a):
    return torch.tensor(np.ascontiguousarray(a), dtype=torch.float32, device="cuda")


def scores(tree, x, y):
    """MSE and R^2 of the tree on x (vars x cases) against y, from EvoGP's float32 values."""
    pred = tree.forward(cuda(x.T)).detach().cpu().numpy().astype(np.float64).reshape(-1)
    err = pred - y
    mse = float(np.mean(err * err)) if np.all(np.isfinite(pred)) else float("inf")
    ss = float(np.sum((y - y.mean()) ** 2))
    return mse, (1.0 - mse * len(y) / ss) if ss > 0 else float("nan")


def run(t, seed, data_seed):
    xtr, ytr, xte, yte, _ = suites.draw(t, data_seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed(seed)
    problem = SymbolicRegression(datapoints=cuda(xtr.T), labels=cuda(ytr.reshape(-1, 1)))
    desc = GenerateDescriptor(max_tree_len=128, input_len=xtr.shape[0], output_len=1,
                              const_prob=0.5, out_prob=0.5, using_funcs=FUNCS,
                              layer_leaf_prob=0.2, const_range=(-5, 5), sample_cnt=8,
                              max_layer_cnt=5)
    alg = GeneticProgramming(
        initial_forest=Forest.random_generate(pop_size=POP, descriptor=desc),
        crossover=DefaultCrossover(),
        mutation=DefaultMutation(mutation_rate=0.2, descriptor=desc.update(max_layer_cnt=3)),
        selection=DefaultSelection(survival_rate=0.3, elite_rate=0.01))
    pipe = StandardPipeline(alg, problem, generation_limit=GENERATIONS, is_show_details=False)
    t0 = time.perf_counter()
    pipe.run()
    torch.cuda.synchronize()
    seconds = time.perf_counter() - t0
    best = pipe.best_tree
    if best is None:
        return dict(status="no tree", seconds=seconds)
    train_mse, _ = scores(best, xtr, ytr)
    test_mse, test_r2 = scores(best, xte, yte)
    try:
        program = best.to_infix()
    except Exception:  # printing is a convenience; the scores are what count
        program = ""
    return dict(status="ok", exact=int(train_mse < EXACT and test_mse < EXACT),
                train_mse=train_mse, test_mse=test_mse, test_r2=test_r2,
                nodes=int(best.subtree_size[0].item()), seconds=round(seconds, 3),
                program=program)


def main():
    out, names, seeds, base = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3]), int(sys.argv[4])
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        for name in names:
            for t in suites.SUITES[name]:
                rows = []
                for r in range(1, seeds + 1):
                    try:
                        row = run(t, base + r, base + r)
                    except Exception as e:  # one failed run must not lose the others
                        row = dict(status="failed: %s" % str(e)[:200])
                    row.update(suite=name, target=t.name, run=r, seed=base + r, data_seed=base + r)
                    w.writerow(row)
                    f.flush()
                    rows.append(row)
                ok = [x for x in rows if x["status"] == "ok"]
                r2 = [x["test_r2"] for x in ok]
                print("%s %s: %d of %d exact, median test R^2 %.4f, median %.2f s" % (
                    name, t.name, sum(x["exact"] for x in ok), len(rows),
                    float(np.median(r2)) if r2 else float("nan"),
                    float(np.median([x["seconds"] for x in ok])) if ok else float("nan")),
                    flush=True)


if __name__ == "__main__":
    main()
