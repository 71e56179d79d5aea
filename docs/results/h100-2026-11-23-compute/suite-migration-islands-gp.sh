#!/usr/bin/env bash
# The last device call of the day, after GP islands and the GPU emigrant
# selection were merged: the whole suite, the cGA migration cost (migration.sh) and GP islands
# (islands-gp.sh). One tarball under $OUT (the device returns few files). About 5 minutes.
#   . .gl/env.sh && docs/results/h100-2026-11-23-compute/suite-migration-islands-gp.sh
set -uo pipefail
R=/tmp/suite-migration-islands-gp; rm -rf $R; mkdir -p $R/suite $R/migration $R/islands-gp
OUT=$R/suite scripts/device/suite.sh build > /dev/null 2>&1
grep -v " pass " $R/suite/suite.log
OUT=$R/migration timeout 150 scripts/device/migration.sh build > $R/migration/stdout.txt 2>&1
cat $R/migration/stdout.txt | tail -15
OUT=$R/islands-gp timeout 200 scripts/device/islands-gp.sh build > $R/islands-gp/stdout.txt 2>&1
tail -14 $R/islands-gp/stdout.txt
mkdir -p "${OUT:-out}"; tar czf "${OUT:-out}/suite-migration-islands-gp.tar.gz" -C $R .
