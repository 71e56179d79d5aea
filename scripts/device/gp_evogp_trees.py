"""EvoGP beside glevo on the very same trees and data (issue 13: "faster than EvoGP at its own
tree shapes"). Generates EvoGP's random forests with the descriptors of
.peers/evogp_bench.py (10 inputs, max_tree_len 128, layers 5 and 6, const_prob 0.3, the
arithmetic set with and without sin/cos), times EvoGP's SR_fitness on them (every execution
mode, mean of 5 after a warm-up), and writes each forest as glevo programs (prefix
S-expressions) with the data as CSV, for `glevo gp-eval` to time the same work.
Usage: python3 gp_evogp_trees.py OUTDIR [POP] [CASES]   (after building .peers/evogp)
Prints one JSON line per EvoGP timing; writes OUTDIR/evogp_<set>_<layers>.txt and
OUTDIR/evogp_data.csv."""
import json, os, sys, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", ".peers", "evogp", "src"))
import torch
from evogp.tree import Forest, GenerateDescriptor

out = sys.argv[1]
pop = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
cases = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
os.makedirs(out, exist_ok=True)
torch.manual_seed(1)

# EvoGP's node types and function ids (evogp/tree/utils.py) -> glevo's operators.
VAR, CONST, UFUNC, BFUNC, TYPE_MASK = 0, 1, 2, 3, 0x7F
NAMES = {1: "+", 2: "-", 3: "*", 4: "/", 14: "sin", 15: "cos", 25: "neg"}


def sexpr(types, values, i):
    """(text, next index) of the prefix subtree at i; the first argument is on top of EvoGP's
    stack as it is on glevo's."""
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


X = torch.rand(cases, 10, device="cuda") * 2 - 1
y = torch.rand(cases, 1, device="cuda")
with open(os.path.join(out, "evogp_data.csv"), "w") as f:
    f.write(",".join("x%d" % (k + 1) for k in range(10)) + ",y\n")
    for row, target in zip(X.cpu().tolist(), y.cpu().tolist()):
        f.write(",".join(repr(v) for v in row) + ",%r\n" % target[0])

for funcs, tag in ((["+", "-", "*", "/"], "arith"), (["+", "-", "*", "/", "sin", "cos"], "trig")):
    for layers in (5, 6):
        desc = GenerateDescriptor(max_tree_len=128, input_len=10, output_len=1, using_funcs=funcs,
                                  max_layer_cnt=layers, layer_leaf_prob=0.1, const_prob=0.3,
                                  const_range=(-1.0, 1.0), sample_cnt=100)
        forest = Forest.random_generate(pop_size=pop, descriptor=desc)
        sizes = forest.batch_subtree_size[:, 0].cpu().tolist()
        types = forest.batch_node_type.cpu().tolist()
        values = forest.batch_node_value.cpu().tolist()
        path = os.path.join(out, "evogp_%s_%d.txt" % (tag, layers))
        with open(path, "w") as f:
            for t in range(pop):
                text, end = sexpr(types[t], values[t], 0)
                assert end == sizes[t], (t, end, sizes[t])
                f.write(text + "\n")
        nodes = int(sum(sizes))
        for mode in ("auto", "data parallel", "tree parallel"):
            forest.SR_fitness(X, y, execute_mode=mode)
            torch.cuda.synchronize()
            reps = 5
            t0 = time.perf_counter()
            for _ in range(reps):
                forest.SR_fitness(X, y, execute_mode=mode)
            torch.cuda.synchronize()
            dt = (time.perf_counter() - t0) / reps
            print(json.dumps(dict(peer="evogp", set=tag, layers=layers, mode=mode, pop=pop,
                                  cases=cases, mean_size=round(nodes / pop, 2), seconds=round(dt, 6),
                                  gpops=round(nodes * cases / dt / 1e9, 2), programs=path)),
                  flush=True)
