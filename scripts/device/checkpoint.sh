#!/usr/bin/env bash
# Checkpoints on the GPU machine (issue 14), one device call, under ~6 minutes:
#  - the checkpoint tests on this driver (bit-identical resumes on fragment, compute, cpu);
#  - time to write one checkpoint of 10^6 cGA individuals (1000 x 1000, camel) and of DE
#    NP 10^5 x D 100, on fragment and compute (goal: < 1 s each), and to resume from it;
#  - the cost of checkpointing every 60 s in a long run: a cGA 10^6 compute run of ~70 s
#    with the default (time-based) checkpoints against the same run without (goal: < 1%).
# Run from the repository root with carry [".gl", "build"]:
#   . .gl/env.sh && scripts/device/checkpoint.sh
# CSV with the renderer string into $OUT/checkpoint.csv (or ./out). Checkpoint files go to
# $CKPT_DIR (default /tmp: the machine's own disk, not $OUT) and are removed at the end.
# LONG_GENERATIONS sets the long run (default 200000: ~70 s at the 0.35 ms a generation
# issue 13 measured for 10^6 individuals on compute); CGA_GRID, DE_POP, DE_DIM the sizes.
set -uo pipefail
out=${OUT:-out}; mkdir -p "$out"
glevo=${GLEVO:-./build/glevo}
dir=${CKPT_DIR:-/tmp}/glevo-ckpt-$$; mkdir -p "$dir"
long=${LONG_GENERATIONS:-200000}
grid=${CGA_GRID:-1000x1000}; np=${DE_POP:-100000}; dim=${DE_DIM:-100}  # smaller for a dry run
trap 'rm -rf "$dir"' EXIT
step() { echo "== $* ($(date +%T))" | tee -a "$out/steps.txt" >&2; }
now() { date +%s.%N; }

step info
"$glevo" info --json > "$out/info.json" 2>&1
df -h "$dir" > "$out/disk.txt" 2>&1

step "tests on this driver"
for t in test_checkpoint test_cga_checkpoint test_de_checkpoint test_gp_checkpoint test_dsmga_checkpoint test_cli_checkpoint; do
  timeout 120 ./build/$t > "$out/$t.txt" 2>&1
  echo "$t exit $?" | tee -a "$out/tests.txt"
done

csv="$out/checkpoint.csv"
echo "measure,algorithm,backend,size,genes,file_bytes,writes,write_seconds_total,seconds_per_write,resume_seconds,run_seconds,overhead_fraction,renderer" > "$csv"
# One JSON report -> one CSV row (python3: the JSON's numbers as they are).
row() { # measure algorithm individuals genes file json_file resume_seconds
  python3 - "$@" <<'EOF' >> "$csv"
import json, os, sys
measure, alg, n, genes, path, js, resume = sys.argv[1:8]
d = json.load(open(js))
w, ws = d.get("checkpoint_writes", 0), d.get("checkpoint_seconds", 0.0)
size = os.path.getsize(path) if os.path.exists(path) else 0
per = ws / w if w else 0.0
run = d["seconds"]
print(f"{measure},{alg},{d['backend']},{n},{genes},{size},{w},{ws:.6f},{per:.6f},{resume},"
      f"{run:.3f},{ws / run if run else 0:.6f},\"{d['renderer']}\"")
EOF
}

step "write time: cGA 10^6 individuals (1000 x 1000, dim 2), 4 checkpoints each"
for backend in fragment compute; do
  f="$dir/cga-$backend.ckpt"
  "$glevo" cga --grid $grid --problem camel --generations 20 --report-every 5 --backend $backend \
    --checkpoint "$f" --checkpoint-every 5 --json --quiet > "$out/cga-$backend.json" 2> "$out/cga-$backend.err"
  t0=$(now)
  "$glevo" cga --resume "$f" --generations 20 --json --quiet > /dev/null 2>> "$out/cga-$backend.err"
  t1=$(now)
  row write cga "$grid" 2 "$f" "$out/cga-$backend.json" "$(python3 -c "print(round($t1 - $t0, 3))")"
done

step "write time: DE NP 10^5 x D 100, 5 checkpoints each"
for backend in fragment compute; do
  f="$dir/de-$backend.ckpt"
  "$glevo" de --pop $np --dim $dim --max-evals $((np * 6)) --backend $backend --checkpoint "$f" \
    --checkpoint-every 1 --json --quiet > "$out/de-$backend.json" 2> "$out/de-$backend.err"
  t0=$(now)
  "$glevo" de --resume "$f" --json --quiet > /dev/null 2>> "$out/de-$backend.err"
  t1=$(now)
  row write de $np $dim "$f" "$out/de-$backend.json" "$(python3 -c "print(round($t1 - $t0, 3))")"
done

step "long run: cGA 10^6 compute, $long generations, checkpoints every 60 s (the default) vs none"
f="$dir/long.ckpt"
timeout 150 "$glevo" cga --grid $grid --problem camel --generations $long --report-every 1000 \
  --backend compute --checkpoint "$f" --json --quiet > "$out/long-checkpointed.json" 2> "$out/long.err"
row every60s cga "$grid" 2 "$f" "$out/long-checkpointed.json" ""
timeout 150 "$glevo" cga --grid $grid --problem camel --generations $long --report-every 1000 \
  --backend compute --json --quiet > "$out/long-plain.json" 2>> "$out/long.err"
row plain cga "$grid" 2 /nonexistent "$out/long-plain.json" ""

step summary
python3 - "$out" <<'EOF' | tee "$out/summary.txt"
import csv, sys
rows = list(csv.DictReader(open(f"{sys.argv[1]}/checkpoint.csv")))
for r in rows:
    if r["measure"] == "write":
        print(f"{r['algorithm']} {r['backend']}: {int(r['file_bytes']) / 1e6:.1f} MB, "
              f"{float(r['seconds_per_write']):.3f} s a checkpoint (goal < 1 s), resume {r['resume_seconds']} s "
              f"(with context start)")
ck = [r for r in rows if r["measure"] == "every60s"]
pl = [r for r in rows if r["measure"] == "plain"]
if ck and pl:
    a, b = float(ck[0]["run_seconds"]), float(pl[0]["run_seconds"])
    per = float(ck[0]["seconds_per_write"])
    print(f"long run: {ck[0]['writes']} checkpoints, {a:.2f} s with vs {b:.2f} s without "
          f"({(a - b) / b * 100:+.2f}%); one checkpoint every 60 s costs {per / 60 * 100:.3f}% (goal < 1%)")
print("renderer:", rows[0]["renderer"] if rows else "?")
EOF
cat "$csv"
