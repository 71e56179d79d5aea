"""EvoGP beside glevo on the very same trees and data (issue 13: "faster than EvoGP at its own
tree shapes"). Generates EvoGP's random forests (evogp_forests.py: the descriptors of
.peers/evogp_bench.py), times EvoGP's SR_fitness on them (every execution mode, mean of 5
after a warm-up), and writes each forest as glevo programs (prefix S-expressions) with the data
as CSV, for `glevo gp-eval` to time the same work.
Usage: python3 gp_evogp_trees.py OUTDIR [POP] [CASES]   (after building .peers/evogp)
Prints one JSON line per EvoGP timing; writes OUTDIR/evogp_<set>_<layers>.txt and
OUTDIR/evogp_data.csv."""
import json
import os
import sys

import evogp_forests as ef

out = sys.argv[1]
pop = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
cases = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
os.makedirs(out, exist_ok=True)
ef.torch.manual_seed(1)
X, y = ef.random_data(cases, os.path.join(out, "evogp_data.csv"))
for funcs, tag in ef.SETS:
    for layers in ef.LAYERS:
        path = os.path.join(out, "evogp_%s_%d.txt" % (tag, layers))
        forest, nodes = ef.forest(funcs, layers, pop, path)
        for mode in ("auto", "data parallel", "tree parallel"):
            dt = ef.time_sr_fitness(forest, X, y, mode)
            print(json.dumps(dict(peer="evogp", set=tag, layers=layers, mode=mode, pop=pop,
                                  cases=cases, mean_size=round(nodes / pop, 2), seconds=round(dt, 6),
                                  gpops=round(nodes * cases / dt / 1e9, 2), programs=path)),
                  flush=True)
