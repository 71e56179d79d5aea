#!/usr/bin/env bash
# After migration's clock was made to start once the GPU has finished the queued generations
# (glevo_islands_migrate): the cGA migration cost again (migration.sh) and the islands
# measurements (islands.sh). One tarball under $OUT. About 7 minutes.
#   . .gl/env.sh && docs/results/h100-2026-11-23-compute/migration-islands.sh
set -uo pipefail
R=/tmp/migration-islands; rm -rf $R; mkdir -p $R/migration $R/islands
OUT=$R/migration timeout 150 scripts/device/migration.sh build > $R/migration/stdout.txt 2>&1
cut -d, -f1-11 $R/migration/migration.csv
OUT=$R/islands timeout 400 scripts/device/islands.sh build > $R/islands/stdout.txt 2>&1
tail -5 $R/islands/stdout.txt
mkdir -p "${OUT:-out}"; tar czf "${OUT:-out}/migration-islands.tar.gz" -C $R .
