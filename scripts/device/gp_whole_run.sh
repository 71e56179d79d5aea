# Sourced by the whole-run GP scripts (gp-defaults.sh here; the dated runs under docs/results/,
# e.g. h100-2026-11-25/gp-finish/run.sh): one
# `glevo gp` run of 50 generations, max size 64, on gp_sr_data.py's data, appended to a JSON
# lines file as {"variant", "pop", "cases", "seed", "wall", "run": the run's --json or null}.
#   gp_whole_run JSONL GLEVO DATA_DIR VARIANT POP CASES SEED ENV [glevo gp options...]
# ENV is the run's environment: NAME=VALUE words, space-separated (X=1 for none).

# EvoGP's pipeline's algorithm (../shared/peers/evogp_fullrun.py): squared error without
# scaling, fitting, portfolio or enumerated programs, its operator set.
EVOGP_ALGORITHM="--metric mse --function-set +,-,*,/,neg,sin,cos --no-linear-scaling --const-opt 0 --portfolio 0 --enumerate 0"

gp_whole_run() {
  local jsonl=$1 g=$2 dir=$3 v=$4 pop=$5 cases=$6 seed=$7 env=$8 t0 t1 js
  shift 8
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086 # ENV is split into its words on purpose
  js=$(env $env "$g" gp --data "$dir/sr_$cases.csv" --pop "$pop" --generations 50 --max-size 64 \
       --seed "$seed" --quiet --json "$@")
  t1=$(date +%s.%N)
  echo "{\"variant\":\"$v\",\"pop\":$pop,\"cases\":$cases,\"seed\":$seed,\"wall\":$(awk "BEGIN{print $t1 - $t0}"),\"run\":${js:-null}}" >> "$jsonl"
}
