#!/usr/bin/env bash
# The library as a user gets it: install into a prefix, move the prefix elsewhere (pkg-config
# must follow: ${pcfiledir}), build examples/library.c with `pkg-config glevo` and run it, and
# check that README.md shows exactly that file under its snippet marker.
#   test_library_snippet.sh BUILD_DIR SOURCE_DIR C_COMPILER [EXTRA_CFLAGS]
set -euo pipefail
build=$1 src=$2 cc=$3 extra=${4:-}
work=$(mktemp -d /tmp/glevo-install-XXXXXX)
trap 'rm -rf "$work"' EXIT

# README: the fenced block after the marker line must be examples/library.c, byte for byte.
awk '/^<!-- snippet: examples\/library.c -->$/ {found = 1; next}
     found == 1 && /^```/ {found = 2; next}
     found == 2 && /^```$/ {exit}
     found == 2 {print}' "$src/README.md" > "$work/readme_snippet.c"
if ! cmp -s "$work/readme_snippet.c" "$src/examples/library.c"; then
  echo "README.md's snippet under '<!-- snippet: examples/library.c -->' differs from examples/library.c:" >&2
  diff "$src/examples/library.c" "$work/readme_snippet.c" >&2 || true
  exit 1
fi

cmake --install "$build" --prefix "$work/first" >/dev/null
mv "$work/first" "$work/moved"
pc=$(dirname "$(find "$work/moved" -name glevo.pc | head -n 1)")
export PKG_CONFIG_PATH=$pc
flags=$(pkg-config --cflags --libs glevo)
case "$flags" in *"$work/moved/"*) ;; *) echo "pkg-config glevo does not follow the moved prefix: $flags" >&2; exit 1 ;; esac
case "$flags" in *"$work/first"*) echo "pkg-config glevo still names the old prefix: $flags" >&2; exit 1 ;; esac

# shellcheck disable=SC2086 # flags are words
"$cc" -std=c11 -Wall -Wextra -Werror $extra "$src/examples/library.c" $flags -o "$work/library"
out=$(LD_LIBRARY_PATH="$(pkg-config --variable=libdir glevo)" "$work/library")
case "$out" in "best "*) echo "$out" ;; *) echo "examples/library.c printed: $out" >&2; exit 1 ;; esac
