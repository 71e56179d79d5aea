#!/usr/bin/env bash
# The man pages and the bash completion against --help: every command and bench suite has a
# page, and every option its --help lists appears in its page and among its completions;
# enumerated values complete (--backend offers compute), and `glevo c<TAB>` gives cga.
#   test_cli_docs.sh GLEVO MAN_DIR COMPLETION_FILE
set -euo pipefail
glevo=$1 man_dir=$2 completion=$3
fail() { echo "test_cli_docs: $*" >&2; exit 1; }
[ -f "$man_dir/glevo.1.gz" ] || fail "no $man_dir/glevo.1.gz"

# The completion function, run the way bash runs it: COMP_WORDS and COMP_CWORD for a line.
# The script calls `glevo` by the word typed, so glevo's directory goes first on PATH.
PATH="$(cd "$(dirname "$glevo")" && pwd):$PATH"
# shellcheck source=/dev/null
source "$completion"
complete_line() { # complete_line "glevo cga --ba" -> the candidates, one a line
  read -ra COMP_WORDS <<<"$1"
  [[ $1 == *" " ]] && COMP_WORDS+=("")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _glevo
  printf '%s\n' "${COMPREPLY[@]}"
}
[ "$(complete_line "glevo c" | tr '\n' ' ')" = "cga " ] || fail "glevo c<TAB> does not give cga"
# Captured first: `complete_line ... | grep -q` would let grep's early exit kill the writer
# (SIGPIPE), which pipefail reports as a failure.
backends=$(complete_line "glevo gp --backend ")
grep -qx compute <<<"$backends" || fail "--backend does not offer compute"
problems=$(complete_line "glevo cga --problem ")
grep -qx camel <<<"$problems" || fail "cga --problem does not offer camel"

check_page() { # check_page PAGE COMPLETION-LINE HELP-ARGS...
  local page=$1 line=$2; shift 2
  [ -f "$man_dir/$page.1.gz" ] || fail "no man page $page.1.gz"
  local text options completions
  text=$(zcat "$man_dir/$page.1.gz" | sed 's/\\//g')
  options=$("$glevo" "$@" --help | grep -oE '^  --[a-zA-Z0-9-]+' | sed 's/^  //')
  completions=$(complete_line "$line")
  [ -n "$options" ] || fail "glevo $* --help lists no option"
  for o in $options; do
    grep -qF -- "$o" <<<"$text" || fail "$page.1 lacks $o (glevo $* --help lists it)"
    grep -qxF -- "$o" <<<"$completions" || fail "completing '$line' lacks $o"
  done
  checked=$((checked + 1))
}
checked=0
for c in $("$glevo" __complete '' | grep -v '^--'); do
  if [ "$c" = bench ]; then
    for s in $("$glevo" __complete bench ''); do check_page "glevo-bench-$s" "glevo bench $s --" bench "$s"; done
  else
    check_page "glevo-$c" "glevo $c --" "$c"
  fi
done
[ "$checked" -ge 14 ] || fail "only $checked pages checked"
echo "test_cli_docs: $checked pages and their completions hold every option --help lists"
