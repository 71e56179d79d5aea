#!/bin/bash
# constant fitting's tries scored on the first 128 cases first (the tree) against scoring
# every case (base: the shaders before), the same verdicts: the same best errors
out=$OUT; mkdir -p $out/data
python3 scripts/device/gp_sr_data.py $out/data 1000 > /dev/null 2>&1
export GLEVO_PROGRAM_CACHE=$(mktemp -d)
for rep in 1 2; do
for v in base early; do
  if [ $v = base ]; then export GLEVO_SHADER_DIR=.prof/sh-base; else unset GLEVO_SHADER_DIR; fi
  .prof/glevo gp --data $out/data/sr_1000.csv --pop 10000 --seed 1 --quiet > /dev/null 2>&1
  for m in 64 1024; do
    .prof/glevo gp --data $out/data/sr_1000.csv --pop 10000 --seed 1 --const-opt-max $m --json --profile > $out/r.json 2> $out/p.txt
    echo "rep$rep $v max=$m $(python3 -c "import json;d=json.load(open('$out/r.json'));print(d['best_fitness'])") $(grep const_fit $out/p.txt)" | tee -a $out/fit.txt
  done
  for cell in "10000 1000" "100000 1000"; do set -- $cell
    for s in 1 2 3; do
      .prof/glevo gp --data $out/data/sr_$2.csv --pop $1 --seed $s --json --quiet > $out/r.json 2>/dev/null
      echo "rep$rep $v $1x$2 seed=$s $(python3 -c "import json;d=json.load(open('$out/r.json'));print(d['seconds'], d['best_fitness'])")" | tee -a $out/runs.txt
    done
  done
done; done
rm -rf $out/data $out/r.json $out/p.txt
