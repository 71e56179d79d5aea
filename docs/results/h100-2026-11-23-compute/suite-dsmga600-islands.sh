#!/usr/bin/env bash
# A last device call of the day: the whole suite again (islands tests included), DSMGA-II's
# BuildDSM after the pixel-unpack uploads and the fence wait (one lossy and one lossless run
# at ell 600), and the islands measurements. One tarball under $OUT.
#   . .gl/env.sh && docs/results/h100-2026-11-23-compute/suite-dsmga600-islands.sh
set -uo pipefail
R=/tmp/res; rm -rf $R; mkdir -p $R/suite $R/dsmga $R/islands
OUT=$R/suite scripts/device/suite.sh build > /dev/null 2>&1
grep -v " pass " $R/suite/suite.log
for model in lossy lossless; do
  ./build/glevo dsmga --problem ftrap --ell 600 --pop 224 --model $model --backend compute \
    --profile --json --quiet > $R/dsmga/ftrap600_$model.json 2> $R/dsmga/ftrap600_${model}_profile.txt
  python3 -c "
import json; d = json.load(open('$R/dsmga/ftrap600_$model.json'))
g = max(1, d['generations'])
print('$model', 'dsm_ms/gen', round(d['dsm_ms'] / g, 4), 'ils_ms/gen', round(d['ils_ms'] / g, 4), 'nfe', d['nfe'])"
done
OUT=$R/islands timeout 390 scripts/device/islands.sh build > $R/islands/stdout.txt 2>&1
tail -30 $R/islands/stdout.txt
tar czf $OUT/suite-dsmga600-islands.tar.gz -C $R .
