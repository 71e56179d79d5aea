"""EvoGP's evaluation beside glevo's on the same trees and data over a grid of populations and
case counts (issue 24): gp_evogp_trees.py's forests (EvoGP's random trees of .peers/
evogp_bench.py: 10 inputs, max_tree_len 128, layers 5 and 6, const_prob 0.3, the arithmetic
set with and without sin/cos) and its timing of SR_fitness (every execution mode, a warm-up,
then 5 evaluations and one synchronisation), but each population's forests generated and
written once for every case count.
Usage: python3 gp_small_trees.py OUTDIR POPS CASES   (comma lists; after building .peers/evogp)
EVOGP_MODES=auto (default: all three) and EVOGP_SETS=arith_5,trig_6 (default: all four) narrow it.
Writes OUTDIR/p<POP>/evogp_<set>_<layers>.txt and OUTDIR/data_<CASES>.csv; prints one JSON line
per EvoGP timing (the `programs` and `data` files glevo times the same work on)."""
import json, os, sys, time

here = os.path.dirname(os.path.abspath(__file__))
for peers in (os.path.join(here, "..", "..", ".peers"), os.path.join(here, "..", "..", "..", ".peers")):
    sys.path.insert(0, os.path.join(peers, "evogp", "src"))
import torch
from evogp.tree import Forest, GenerateDescriptor

out = sys.argv[1]
pops = [int(v) for v in sys.argv[2].split(",")]
cases_list = [int(v) for v in sys.argv[3].split(",")]
os.makedirs(out, exist_ok=True)
modes = os.environ.get("EVOGP_MODES", "auto,data parallel,tree parallel").split(",")
sets = os.environ.get("EVOGP_SETS", "arith_5,arith_6,trig_5,trig_6").split(",")

VAR, CONST, UFUNC, BFUNC, TYPE_MASK = 0, 1, 2, 3, 0x7F
NAMES = {1: "+", 2: "-", 3: "*", 4: "/", 14: "sin", 15: "cos", 25: "neg"}


def sexpr(types, values, i):
    t = types[i] & TYPE_MASK
    if t == VAR:
        return "x%d" % (int(values[i]) + 1), i + 1
    if t == CONST:
        return repr(float(values[i])), i + 1
    name = NAMES[int(values[i])]
    args, j = [], i + 1
    for _ in range(1 if t == UFUNC else 2):
        a, j = sexpr(types, values, j)
        args.append(a)
    return "(%s %s)" % (name, " ".join(args)), j


data = {}
for cases in cases_list:
    torch.manual_seed(1)
    X = torch.rand(cases, 10, device="cuda") * 2 - 1
    y = torch.rand(cases, 1, device="cuda")
    path = os.path.join(out, "data_%d.csv" % cases)
    with open(path, "w") as f:
        f.write(",".join("x%d" % (k + 1) for k in range(10)) + ",y\n")
        for row, target in zip(X.cpu().tolist(), y.cpu().tolist()):
            f.write(",".join(repr(v) for v in row) + ",%r\n" % target[0])
    data[cases] = (X, y, path)

for pop in pops:
    torch.manual_seed(2)
    d = os.path.join(out, "p%d" % pop)
    os.makedirs(d, exist_ok=True)
    for funcs, tag in ((["+", "-", "*", "/"], "arith"), (["+", "-", "*", "/", "sin", "cos"], "trig")):
        for layers in (5, 6):
            if "%s_%d" % (tag, layers) not in sets:
                continue
            desc = GenerateDescriptor(max_tree_len=128, input_len=10, output_len=1, using_funcs=funcs,
                                      max_layer_cnt=layers, layer_leaf_prob=0.1, const_prob=0.3,
                                      const_range=(-1.0, 1.0), sample_cnt=100)
            forest = Forest.random_generate(pop_size=pop, descriptor=desc)
            sizes = forest.batch_subtree_size[:, 0].cpu().tolist()
            types = forest.batch_node_type.cpu().tolist()
            values = forest.batch_node_value.cpu().tolist()
            path = os.path.join(d, "evogp_%s_%d.txt" % (tag, layers))
            with open(path, "w") as f:
                for t in range(pop):
                    text, end = sexpr(types[t], values[t], 0)
                    assert end == sizes[t], (t, end, sizes[t])
                    f.write(text + "\n")
            nodes = int(sum(sizes))
            for cases in cases_list:
                X, y, dpath = data[cases]
                for mode in modes:
                    forest.SR_fitness(X, y, execute_mode=mode)
                    torch.cuda.synchronize()
                    reps = 5
                    t0 = time.perf_counter()
                    for _ in range(reps):
                        forest.SR_fitness(X, y, execute_mode=mode)
                    torch.cuda.synchronize()
                    dt = (time.perf_counter() - t0) / reps
                    print(json.dumps(dict(peer="evogp", set=tag, layers=layers, mode=mode, pop=pop,
                                          cases=cases, mean_size=round(nodes / pop, 2),
                                          seconds=round(dt, 7),
                                          gpops=round(nodes * cases / dt / 1e9, 2),
                                          programs=path, data=dpath)), flush=True)
