#!/bin/bash
# Where a default run's time goes, and the reordered walks only where needed: NEW (every fitted
# program reordered) against NEW2 (only programs whose written walk needs more slots than the
# build has), gp.const_fit's GPU time (--profile, seeds 1-3); TIMER (timer.patch on NEW: the
# host's seconds by phase of create, the generations' submit / collect / report, the result and
# the front, printed on stderr) at the four cells, seeds 1-3, quiet and with progress (what a
# user who types `glevo gp --data FILE` gets).
# Usage (repository root on the GPU machine, $OUT set): split.sh NEW NEW2 TIMER
set -u
new=$1; new2=$2; timer=$3; out=${OUT:-out}; mkdir -p "$out/data"
. scripts/device/gp_whole_run.sh
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 10000 > /dev/null
export GLEVO_PROGRAM_CACHE=$(mktemp -d)
for c in 1000:100 10000:1000 10000:10000 100000:1000; do
  pop=${c%:*}; cases=${c#*:}
  run() { "$1" gp --data "$out/data/sr_$cases.csv" --pop "$pop" --generations 50 --max-size 64 --seed "$2" "${@:3}"; }
  run "$new" 1 --quiet > /dev/null 2>&1; run "$new2" 1 --quiet > /dev/null 2>&1
  for s in 1 2 3; do
    for v in "new:$new" "new2:$new2"; do
      IFS=: read name g <<< "$v"
      run "$g" $s --quiet --profile 2>&1 | grep -E "const_fit|all passes|seconds|^mse" | tr -s ' ' |
        tr '\n' ' ' | sed "s/^/$name $c seed $s: /; s/$/\n/" >> "$out/log.txt"
    done
  done
  run "$timer" 1 --quiet > /dev/null 2>&1
  for s in 1 2 3; do
    for mode in quiet progress; do
      flags="--json --quiet"; [ $mode = progress ] && flags="--json"
      t0=$(date +%s.%N)
      run "$timer" $s $flags > "$out/t.json" 2> "$out/t.err"
      t1=$(date +%s.%N)
      echo "$c seed $s $mode wall $(awk "BEGIN{print $t1 - $t0}") seconds $(python3 -c "import json;d=json.load(open('$out/t.json'));print(d['seconds'],d['eval_seconds'],d['variation_seconds'],d.get('compile_seconds'))") $(grep TIMER "$out/t.err")" >> "$out/split.txt"
    done
  done
  call_log "cell $c done"
done
rm -rf "$out/data" "$out/t.json" "$out/t.err"
