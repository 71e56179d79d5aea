#!/usr/bin/env bash
# The merged build's user-facing runs on the GPU machine, in one call (2026-11-25):
#   1. whole GP runs beside EvoGP's pipeline (docs/results/h100-2026-11-25/gp-finish/run.sh: four cells, seeds 1-5, compute and
#      fragment, EvoGP's algorithm pinned),
#   2. the cGA's blocked compute path beside the JAX cGA (cga-block.sh final: rule, one
#      generation a dispatch, bit-for-bit checks, the bench --peer picture),
#   3. the cost of constant fitting (issue 26): a generation of 10 000 programs x 1000 cases on
#      the compute backend with mse's defaults (scaling + fitting), with fitting off, and with
#      both off (the resident path).
# Results are packed into $OUT/results.tgz (the device returns at most 8 files).
#   . .gl/env.sh && docs/results/h100-2026-11-25/merged/run.sh GLEVO [PEERS]
set -uo pipefail
glevo=$(realpath "$1") peers=${2:-.peers}
final=${OUT:-out}; mkdir -p "$final"
work=$(mktemp -d)
log() { echo "$(date +%T) $*" | tee -a "$work/log.txt"; }

log "gp whole runs"
OUT="$work/gp" FRAG_UNTIL=150 timeout 300 docs/results/h100-2026-11-25/gp-finish/run.sh "$glevo" > "$work/gp-finish.txt" 2>&1
log "cga blocked"
OUT="$work/cga" timeout 150 scripts/device/cga-block.sh "$glevo" final "$peers" > "$work/cga-block.txt" 2>&1
log "constant fitting cost"
data="$work/gp/data/sr_1000.csv"
for variant in "defaults:" "no-const-opt:--const-opt 0" "resident:--const-opt 0 --no-linear-scaling"; do
  name=${variant%%:*} flags=${variant#*:}
  for seed in 1 2; do
    # shellcheck disable=SC2086
    js=$(timeout 60 "$glevo" gp --data "$data" --pop 10000 --generations 5 --max-size 64 --metric mse \
         --backend compute --seed "$seed" --quiet --json $flags)
    echo "{\"variant\":\"$name\",\"seed\":$seed,\"run\":${js:-null}}" >> "$work/constopt.jsonl"
  done
done
log done
rm -rf "$work/gp/data" "$work/gp/evogp_data"
tar czf "$final/results.tgz" -C "$work" .
cp "$work/log.txt" "$final/"
