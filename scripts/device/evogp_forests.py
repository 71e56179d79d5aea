"""What gp_evogp_trees.py and gp_small_trees.py share: EvoGP's random forests of
.peers/evogp_bench.py's descriptors (10 inputs, max_tree_len 128, layers 5 and 6, const_prob
0.3, the arithmetic set with and without sin/cos), written as glevo programs (prefix
S-expressions), random data written as CSV, and EvoGP's timing of SR_fitness (a warm-up, then
5 evaluations and one synchronisation). Imported from this folder; needs .peers/evogp built."""
import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
for peers in (os.path.join(here, "..", "..", ".peers"), os.path.join(here, "..", "..", "..", ".peers")):
    sys.path.insert(0, os.path.join(peers, "evogp", "src"))
import torch  # noqa: E402
from evogp.tree import Forest, GenerateDescriptor  # noqa: E402

# EvoGP's node types and function ids (evogp/tree/utils.py) -> glevo's operators.
VAR, CONST, UFUNC, BFUNC, TYPE_MASK = 0, 1, 2, 3, 0x7F
NAMES = {1: "+", 2: "-", 3: "*", 4: "/", 14: "sin", 15: "cos", 25: "neg"}
# (functions, tag) of the tree sets; with layers 5 and 6: arith_5, arith_6, trig_5, trig_6.
SETS = ((["+", "-", "*", "/"], "arith"), (["+", "-", "*", "/", "sin", "cos"], "trig"))
LAYERS = (5, 6)


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


def random_data(cases, path):
    """10 inputs in [-1, 1) and a target in [0, 1) on the GPU, also written to path as CSV."""
    X = torch.rand(cases, 10, device="cuda") * 2 - 1
    y = torch.rand(cases, 1, device="cuda")
    with open(path, "w") as f:
        f.write(",".join("x%d" % (k + 1) for k in range(10)) + ",y\n")
        for row, target in zip(X.cpu().tolist(), y.cpu().tolist()):
            f.write(",".join(repr(v) for v in row) + ",%r\n" % target[0])
    return X, y


def forest(funcs, layers, pop, path):
    """A random forest of the set, written to path as glevo programs; (forest, nodes)."""
    desc = GenerateDescriptor(max_tree_len=128, input_len=10, output_len=1, using_funcs=funcs,
                              max_layer_cnt=layers, layer_leaf_prob=0.1, const_prob=0.3,
                              const_range=(-1.0, 1.0), sample_cnt=100)
    f = Forest.random_generate(pop_size=pop, descriptor=desc)
    sizes = f.batch_subtree_size[:, 0].cpu().tolist()
    types = f.batch_node_type.cpu().tolist()
    values = f.batch_node_value.cpu().tolist()
    with open(path, "w") as out:
        for t in range(pop):
            text, end = sexpr(types[t], values[t], 0)
            assert end == sizes[t], (t, end, sizes[t])
            out.write(text + "\n")
    return f, int(sum(sizes))


def time_sr_fitness(f, X, y, mode, reps=5):
    """Seconds one SR_fitness takes: a warm-up, then reps back to back and one synchronisation."""
    f.SR_fitness(X, y, execute_mode=mode)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(reps):
        f.SR_fitness(X, y, execute_mode=mode)
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / reps
