# Sourced by the island scripts of scripts/device/ (run from the repository root): the build
# folder (their first argument, default build), $OUT, the glevo binary, mpirun ($MPIRUN
# overrides) and the flag mpirun needs as root on the device machine.
build=${1:-build}
out=${OUT:-out}; mkdir -p "$out"
g="$PWD/$build/glevo"
mpirun=${MPIRUN:-mpirun}
root=""; [ "$(id -u)" -eq 0 ] && root="--allow-run-as-root"
