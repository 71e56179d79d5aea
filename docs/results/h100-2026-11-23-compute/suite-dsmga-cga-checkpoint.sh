#!/usr/bin/env bash
# A combined device call (every result into one tarball under $OUT, since a call
# brings back 8 files at most): the whole test suite on this driver, DSMGA-II's goals at ell 600
# and its compute column at ell 120 and 300 (the scaling picture), the cGA compute sweep over
# population sizes, and the checkpoint costs.
#   . .gl/env.sh && docs/results/h100-2026-11-23-compute/suite-dsmga-cga-checkpoint.sh
set -uo pipefail
R=/tmp/res; rm -rf $R; mkdir -p $R/suite $R/dsmga $R/dsmga-scaling $R/cga $R/checkpoint
OUT=$R/suite scripts/device/suite.sh build > /dev/null 2>&1
grep -v " pass " $R/suite/suite.log
OUT=$R/dsmga timeout 200 scripts/device/dsmga.sh build 3 1 > $R/dsmga/stdout.txt 2>&1
cat $R/dsmga/dsmga_goals.csv
timeout 100 ./build/glevo bench dsmga --problems ftrap --ells 120,300 --runs 3 --cpu-runs 1 \
  --backend compute,fragment --out $R/dsmga-scaling --name dsmga_ftrap_small > /dev/null 2>&1
echo "grid,individuals,seconds,us_per_generation,renderer" > $R/cga/cga_sweep.csv
for grid in 20x10 40x20 100x100 256x256 512x512 1024x1024; do
  ./build/glevo cga --problem camel --grid $grid --generations 1000 --report-every 1000 \
    --backend compute --json --quiet | python3 -c "
import json, sys
d = json.load(sys.stdin)
print(f\"$grid,{d['grid_width'] * d['grid_height']},{d['seconds']:.6f},{d['seconds'] / d['generations'] * 1e6:.2f},{d['renderer']}\")" >> $R/cga/cga_sweep.csv
done
cat $R/cga/cga_sweep.csv
OUT=$R/checkpoint LONG_GENERATIONS=150000 timeout 240 scripts/device/checkpoint.sh > $R/checkpoint/stdout.txt 2>&1
cat $R/checkpoint/summary.txt $R/checkpoint/tests.txt
tar czf $OUT/suite-dsmga-cga-checkpoint.tar.gz -C $R .
