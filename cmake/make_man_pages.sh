#!/bin/sh
# The man pages, from the --help texts of the built programs (help2man), so they cannot drift
# from the option tables:
#   make_man_pages.sh GLEVO GLEVO_DEMO VERSION OUT_DIR
# glevo.1 (the commands), glevo-CMD.1 for each command `glevo __complete ''` lists,
# glevo-bench-SUITE.1 for each bench suite, glevo-demo.1; gzipped as Debian installs them.
set -eu
glevo=$1 demo=$2 version=$3 out=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
# help2man names a page after the program it runs: one wrapper per page ("glevo-cga" runs
# "glevo cga"), so that each page is headed glevo-cga(1).
page() { # page NAME SUMMARY ARGS...
  name=$1 summary=$2; shift 2
  printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$glevo" "$*" > "$work/$name"
  chmod +x "$work/$name"
  help2man --no-info --no-discard-stderr --version-string="$version" --name="$summary" \
    --section=1 --source="glevo $version" --manual="glevo manual" \
    --include="$work/see-also.h2m" "$work/$name" > "$work/$name.1"
  gzip -9n < "$work/$name.1" > "$out/$name.1.gz"
}
commands=$("$glevo" __complete '' | grep -v '^--')
suites=$("$glevo" __complete bench '')
{
  printf '[SEE ALSO]\n'
  for c in $commands; do printf '.BR glevo-%s (1),\n' "$c"; done
  for s in $suites; do printf '.BR glevo-bench-%s (1),\n' "$s"; done
  printf '.BR glevo-demo (1)\n'
  printf '.PP\nThe guide and the formats: /usr/share/doc/glevo (docs/guide.md, docs/formats.md).\n'
} > "$work/see-also.h2m"
page glevo "evolutionary algorithms as GLSL render passes (cellular GA, DE, GP, DSMGA-II)"
summary() { "$glevo" --help | awk -v c="$1" '$1 == c { $1 = ""; sub(/^ /, ""); print; exit }'; }
for c in $commands; do page "glevo-$c" "$(summary "$c")" "$c"; done
for s in $suites; do page "glevo-bench-$s" "glevo bench $s: a paper's table or a measurement" bench "$s"; done
if [ -x "$demo" ]; then
  printf '#!/bin/sh\nexec "%s" "$@"\n' "$demo" > "$work/glevo-demo"
  chmod +x "$work/glevo-demo"
  help2man --no-info --no-discard-stderr --version-string="$version" --section=1 \
    --name="watch the cellular GA, DE and GP evolve in a window" --source="glevo $version" \
    --manual="glevo manual" --include="$work/see-also.h2m" "$work/glevo-demo" > "$work/glevo-demo.1"
  gzip -9n < "$work/glevo-demo.1" > "$out/glevo-demo.1.gz"
fi
