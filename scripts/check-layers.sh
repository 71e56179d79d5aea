#!/usr/bin/env bash
# The house reads in layers (docs/architecture.md): checks that CI runs from
# scripts/quickstart.sh --test. Prints every violation and exits 1 if there is one.
#   - no GL call, GL constant or GL header outside src/gl/ in the library;
#   - no `extern` declared inside a function anywhere;
#   - the library never writes to stderr (messages go through the context's log callback,
#     errors through glevo_last_error);
#   - front ends (cli/, bench/) include only the public headers.
# The rooms' sizes and the circles of calls between files: scripts/check-rooms.py.
set -u
cd "$(dirname "$0")/.."
bad=0
report() { echo "check-layers: $1"; sed 's/^/    /'; bad=1; }

out=$(grep -rnE '\bgl[A-Z][A-Za-z0-9_]*[[:space:]]*\(|\bGL_[A-Z0-9_]+|#include[[:space:]]*<(GL|EGL|GLFW)/' \
      src --include='*.c' --include='*.h' | grep -v '^src/gl/')
[ -n "$out" ] && report "GL outside src/gl/:" <<< "$out"

out=$(grep -rnE '^[[:space:]]+extern[[:space:]]' src cli bench demos tests --include='*.c' --include='*.h')
[ -n "$out" ] && report "extern inside a function:" <<< "$out"

out=$(grep -rnE '\bstderr\b' src --include='*.c' --include='*.h' | grep -vE ':[0-9]+:[[:space:]]*(\*|//|/\*)')
[ -n "$out" ] && report "the library writes to stderr:" <<< "$out"

out=$(grep -rnE '#include[[:space:]]*"(gl|cga|de|gp|dsmga|reduce|core|problems|rng|bits|viz)/' cli bench)
[ -n "$out" ] && report "a front end includes library internals:" <<< "$out"

[ $bad = 0 ] && echo "check-layers: ok"
exit $bad
