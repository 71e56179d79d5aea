#!/usr/bin/env python3
"""The whole-run GP data of ../shared/peers/evogp_fullrun.py without EvoGP: y = x1 x2 + sin x3 +
x4^2 - 0.5 x5 over x in [-1, 1]^10, drawn on the GPU after torch.manual_seed(1) as that script
draws it, written as OUTDIR/sr_<cases>.csv for glevo gp (the GPU machine has torch).
    python3 scripts/device/gp_sr_data.py OUTDIR CASES [CASES ...]"""
import sys

import torch

for cases in map(int, sys.argv[2:]):
    torch.manual_seed(1)
    X = torch.rand(cases, 10, device="cuda") * 2 - 1
    y = (X[:, 0] * X[:, 1] + torch.sin(X[:, 2]) + X[:, 3] ** 2 - 0.5 * X[:, 4])[:, None]
    with open("%s/sr_%d.csv" % (sys.argv[1], cases), "w") as f:
        f.write(",".join("x%d" % (i + 1) for i in range(10)) + ",y\n")
        for row, t in zip(X.cpu().tolist(), y.cpu().tolist()):
            f.write(",".join(repr(v) for v in row) + ",%r\n" % t[0])
