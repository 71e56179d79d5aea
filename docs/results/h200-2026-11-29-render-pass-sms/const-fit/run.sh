#!/bin/bash
# constant fitting's dispatch time against the programs it fits (10^4 x 1000, defaults, seed 1)
out=$OUT; mkdir -p $out/data
python3 scripts/device/gp_sr_data.py $out/data 1000 > /dev/null 2>&1
export GLEVO_PROGRAM_CACHE=$(mktemp -d)
.prof/glevo gp --data $out/data/sr_1000.csv --pop 10000 --seed 1 --quiet > /dev/null 2>&1
for m in 64 128 256 512 1024 2048; do
  .prof/glevo gp --data $out/data/sr_1000.csv --pop 10000 --seed 1 --const-opt-max $m --json --profile > $out/run-$m.json 2> $out/prof-$m.txt
  python3 -c "import json;d=json.load(open('$out/run-$m.json'));print('max=$m', d.get('seconds'), d.get('best_fitness'))"
  grep -E "const_fit" $out/prof-$m.txt
done
rm -rf $out/data
