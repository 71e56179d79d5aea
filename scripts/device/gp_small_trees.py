"""EvoGP's evaluation beside glevo's on the same trees and data over a grid of populations and
case counts (issue 24): gp_evogp_trees.py's forests and timing of SR_fitness (evogp_forests.py),
but each population's forests generated and written once for every case count.
Usage: python3 gp_small_trees.py OUTDIR POPS CASES   (comma lists; after building .peers/evogp)
EVOGP_MODES=auto (default: all three) and EVOGP_SETS=arith_5,trig_6 (default: all four) narrow it.
Writes OUTDIR/p<POP>/evogp_<set>_<layers>.txt and OUTDIR/data_<CASES>.csv; prints one JSON line
per EvoGP timing (the `programs` and `data` files glevo times the same work on)."""
import json
import os
import sys

import evogp_forests as ef

out = sys.argv[1]
pops = [int(v) for v in sys.argv[2].split(",")]
cases_list = [int(v) for v in sys.argv[3].split(",")]
os.makedirs(out, exist_ok=True)
modes = os.environ.get("EVOGP_MODES", "auto,data parallel,tree parallel").split(",")
sets = os.environ.get("EVOGP_SETS", "arith_5,arith_6,trig_5,trig_6").split(",")

data = {}
for cases in cases_list:
    ef.torch.manual_seed(1)
    path = os.path.join(out, "data_%d.csv" % cases)
    data[cases] = ef.random_data(cases, path) + (path,)

for pop in pops:
    ef.torch.manual_seed(2)
    d = os.path.join(out, "p%d" % pop)
    os.makedirs(d, exist_ok=True)
    for funcs, tag in ef.SETS:
        for layers in ef.LAYERS:
            if "%s_%d" % (tag, layers) not in sets:
                continue
            path = os.path.join(d, "evogp_%s_%d.txt" % (tag, layers))
            forest, nodes = ef.forest(funcs, layers, pop, path)
            for cases in cases_list:
                X, y, dpath = data[cases]
                for mode in modes:
                    dt = ef.time_sr_fitness(forest, X, y, mode)
                    print(json.dumps(dict(peer="evogp", set=tag, layers=layers, mode=mode, pop=pop,
                                          cases=cases, mean_size=round(nodes / pop, 2),
                                          seconds=round(dt, 7),
                                          gpops=round(nodes * cases / dt / 1e9, 2),
                                          programs=path, data=dpath)), flush=True)
