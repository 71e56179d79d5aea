#!/usr/bin/env bash
# 2026-11-26 on the GPU machine, the GP portfolio (issue 26: of two searches, then of five; each run measures the build's default portfolio; its sr mode also
# checked the helpers' tournament of two on 2026-11-28: docs/results/h200-2026-11-28-gp-helper-tournament/). Results:
# docs/results/h100-2026-11-26-gp-portfolio/ and h100-2026-11-26-gp-portfolio-five/, docs/symbolic-regression-bench.md ("Portfolio",
# "Searches by family"). The five-search calls ran the modes with OUT=$OUT/c1 (suites, cost,
# and sr with SUITES="nguyen friedman1" VARIANTS=portfolio) and OUT=$OUT/c2 (sr with
# SUITES=keijzer SR_SEEDS=200 VARIANTS=portfolio; SUITES=nguyen SR_SEEDS=500).
#   . .gl/env.sh && docs/results/h100-2026-11-26-gp-portfolio/run.sh DIR MODE
# DIR holds glevo, lib/ and the test binaries; MODE is
#   suites   every GP suite (DIR/test_gp_*) -> suites_gp.log
#   cost     what the portfolio costs a GPU run (compute): a generation of 10^4 programs x 1000
#            cases (calls-lib.sh's constfit: (T(120) - T(20)) / 100, seeds 2-4) and whole
#            Friedman-1 runs at the defaults (2000 x 100, three seeds, second of two processes),
#            each with the default portfolio and with --portfolio 0 -> constfit.jsonl, fr.jsonl
#   sr       the srbench harness on the CPU backend (one thread a run, 15 at once), 30 seeds:
#            for each suite in SUITES (nguyen, friedman1, keijzer) and seed base in SR_SEEDS
#            (default 300), the defaults and --portfolio 0 (VARIANTS: portfolio one_search)
#            -> sr.tgz (sr/NAME/)
set -u
mode=$2
. scripts/device/calls-lib.sh "$1"

case $mode in
suites)
  suites 'test_gp_*' suites_gp.log
  cat "$out/suites_gp.log"
  ;;
cost)
  "$g" info 2>&1 | head -3
  mkdir -p "$out/data"
  python3 scripts/device/gp_sr_data.py "$out/data" 1000 > /dev/null
  for s in 2 3 4; do
    for n in 20 120; do
      constfit portfolio "$s" "$n" X=1
      constfit one_search "$s" "$n" X=1 --portfolio 0
    done
  done
  "$py" - "$out/data" <<'PY'
import sys
sys.path.insert(0, "scripts/srbench")
import suites
t = [t for t in suites.SUITES["friedman1"] if t.name == "friedman-1"][0]
xtr, ytr, *_ = suites.draw(t, 201)
with open(sys.argv[1] + "/friedman.csv", "w") as f:
    f.write(",".join("x%d" % (i + 1) for i in range(xtr.shape[0])) + ",y\n")
    for c in range(xtr.shape[1]):
        f.write(",".join("%.9g" % v for v in xtr[:, c]) + ",%.9g\n" % ytr[c])
PY
  for s in 1 2 3; do
    for v in portfolio one_search; do
      opt=(); [ $v = one_search ] && opt=(--portfolio 0)
      for r in 1 2; do
        js=$("$g" gp --data "$out/data/friedman.csv" --pop 2000 --generations 100 --backend compute \
             --seed "$s" --quiet --json "${opt[@]}")
      done
      echo "{\"variant\":\"$v\",\"seed\":$s,\"run\":${js:-null}}" >> "$out/fr.jsonl"
    done
  done
  rm -rf "$out/data"
  python3 - "$out/constfit.jsonl" "$out/fr.jsonl" <<'PY'
import json, sys, collections
t = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    j = json.loads(line)
    if j["run"]: t[(j["variant"], j["seed"])][j["generations"]] = j["run"]["seconds"]
for (v, s), d in sorted(t.items()):
    if 20 in d and 120 in d: print("10^4 x 1000 %s seed %d: %.2f ms a generation" % (v, s, 10 * (d[120] - d[20])))
for line in open(sys.argv[2]):
    j = json.loads(line)
    r = j["run"] or {}
    print("friedman-1 2000 x 100 %s seed %d: %.3f s, best %s (%s)" % (j["variant"], j["seed"], r.get("seconds", -1), r.get("best_fitness"), r.get("best_search")))
PY
  ;;
sr)
  mkdir -p "$out/sr"
  export BACKEND=cpu JOBS=15 TIMEOUT=600
  for base in ${SR_SEEDS:-300}; do
    for suite in ${SUITES:-nguyen friedman1}; do
      for v in ${VARIANTS:-portfolio one_search}; do
        opt=(); [ "$v" = one_search ] && opt=(--portfolio 0)
        SR_SEED=$base sr "${suite}_${v}_s$base" "$suite" --threads 1 "${opt[@]}"
      done
    done
  done
  tar -czf "$out/sr.tgz" -C "$out" sr && rm -rf "$out/sr" # few files come back
  ;;
*)
  echo "$0: unknown mode '$mode' (suites, cost, sr)" >&2
  exit 2
  ;;
esac
