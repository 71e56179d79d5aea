#!/usr/bin/env bash
# DSMGA-II BuildDSM against the single-thread CPU engine in one call (issue 13's ≥ 60× goal,
# after the pixel-unpack uploads and the fence wait): the 600-bit folded trap at n = 224, four
# seeds of whole compute and fragment runs, and the CPU engine's first 8 generations of the
# same seeds (its FindClique takes ~0.9 s a generation; BuildDSM's cost does not change across
# generations at a fixed n). Prints one line per run and the ratios; about a minute.
#   . .gl/env.sh && docs/results/h100-2026-11-23-compute/dsmga/builddsm-same-call/run.sh     (ELL=36 POP=60: a smoke test on llvmpipe)
set -uo pipefail
# Results in one tarball under $OUT (the device returns few files).
out=/tmp/dsmga-builddsm-speedup; rm -rf "$out"; mkdir -p "$out"
g=./build/glevo
"$g" info --json > "$out/info.json" 2>&1
run() {  # backend model seed [extra...]
  local b=$1 m=$2 s=$3; shift 3
  "$g" dsmga --problem ftrap --ell "${ELL:-600}" --pop "${POP:-224}" --model "$m" --backend "$b" --seed "$s" \
    --json --quiet "$@" > "$out/dsmga_${b}_${m}_$s.json" 2>> "$out/stderr.txt"
}
# Interleaved, so that a slow spell of the host falls on every engine alike.
for s in 1 2 3 4; do
  run cpu lossless $s --max-gens 8
  for b in compute fragment; do for m in lossy lossless; do run $b $m $s; done; done
done
python3 - "$out" <<'PY' | tee "$out/builddsm.txt"
import glob, json, statistics, sys
out = sys.argv[1]
renderer = json.load(open(f"{out}/info.json")).get("renderer", "?")
per = {}
for f in sorted(glob.glob(f"{out}/dsmga_*.json")):
    d = json.load(open(f))
    g = max(1, d["generations"])
    key = (d["backend"], d["model"])
    per.setdefault(key, []).append(d["dsm_ms"] / g)
    print(f"{d['backend']:8} {d['model']:8} seed {d['seed']} gens {g:3} dsm_ms/gen {d['dsm_ms'] / g:.4f} "
          f"ils_ms/gen {d['ils_ms'] / g:.3f} nfe {d['nfe']} solved {d['solved']}")
cpu = statistics.median(per[("cpu", "lossless")])
print(f"renderer: {renderer}")
print(f"CPU engine BuildDSM: {cpu:.3f} ms a generation (median; runs {', '.join(f'{x:.1f}' for x in per[('cpu', 'lossless')])})")
for key, v in sorted(per.items()):
    if key[0] != "cpu":
        m = statistics.median(v)
        print(f"{key[0]:8} {key[1]:8} BuildDSM {m:.4f} ms a generation, {cpu / m:.1f}x the CPU engine")
PY
mkdir -p "${OUT:-out}"; tar czf "${OUT:-out}/dsmga-builddsm-speedup.tar.gz" -C "$out" .
