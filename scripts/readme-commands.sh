#!/usr/bin/env bash
# Runs every command the README shows, as written: each line inside a fenced code block that
# starts with `./build/glevo ` (the CLI; the demo's window is left out) or with `mpirun ` (islands:
# run with Open MPI's environment for this machine, root and more ranks than cores allowed, since
# the README shows the command a user types). A line may continue
# with a trailing backslash; a line ending in `# not run: REASON` is skipped (e.g. a feature
# only a GPU has). The commands run in a scratch folder where build/, data/ and docs/ point
# into the tree, so files they write land there and nothing in the tree changes.
#   scripts/readme-commands.sh [README.md]    (GLEVO_BUILD: the build folder, default build)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
readme=${1:-README.md}
build=$(cd "${GLEVO_BUILD:-build}" && pwd)
lines=$(wc -l < "$readme")
[ "$lines" -le 220 ] || echo "readme-commands: WARNING: $readme has $lines lines (aim: < 200)" >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$build" "$work/build"
ln -s "$root/data" "$work/data"
ln -s "$root/docs" "$work/docs"

ran=0 failed=0 skipped=0 fence=0 cmd=""
while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in '```'*) fence=$((1 - fence)); cmd=""; continue ;; esac
    [ "$fence" = 1 ] || continue
    if [ -n "$cmd" ]; then cmd="${cmd% \\} ${line#"${line%%[! ]*}"}"
    elif [[ "$line" == "./build/glevo "* || "$line" == "mpirun "* ]]; then cmd=$line
    else continue; fi
    [[ "$cmd" == *\\ ]] && continue
    if [[ "$cmd" == *"# not run:"* || ( "$cmd" == "mpirun "* && -z "$(command -v mpirun)" ) ]]; then
        skipped=$((skipped + 1))
    else
        ran=$((ran + 1))
        env=()
        [[ "$cmd" == "mpirun "* ]] && env=(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
            OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl=self,vader
            OMPI_MCA_btl_vader_single_copy_mechanism=none LP_NUM_THREADS=1
            ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0")
        # stdin from /dev/null: mpirun forwards stdin to rank 0 and would eat the README.
        if out=$(cd "$work" && env "${env[@]}" bash -c "$cmd" 2>&1 >/dev/null </dev/null); then
            echo "ok      $cmd"
        else
            failed=$((failed + 1))
            echo "FAILED  $cmd"
            printf '%s\n' "$out" | tail -5 | sed 's/^/        /'
        fi
    fi
    cmd=""
done < "$readme"
echo "readme-commands: $ran run, $failed failed, $skipped skipped ($readme)"
[ "$failed" = 0 ] && [ "$ran" -gt 0 ]
