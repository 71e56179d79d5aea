#!/usr/bin/env bash
# The Debian package as installed, from a root it was unpacked into (scripts/package-deb.sh):
# glevo and the README's main job, the man pages and completion against --help, `import
# glevo` with no GLEVO_LIBRARY (the loader finds the root's library as it would /usr/lib's),
# `python3 -m glevo info`, the Python tests against the installed package, and a pip install
# of python/ into a venv using the installed library.
#   test_deb_root.sh ROOT
set -euo pipefail
root=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "test_deb_root: $*" >&2; exit 1; }
lib=$(dirname "$(find "$root/usr/lib" -name 'libglevo.so.0' | head -1)")
[ -f "$lib/libglevo.so.0" ] || fail "no libglevo.so.0 under $root/usr/lib"
glevo=$root/usr/bin/glevo
site=$root/usr/lib/python3/dist-packages
export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
unset GLEVO_LIBRARY GLEVO_CDEF PYTHONPATH
python=""
for candidate in /usr/bin/python3 "$(command -v python3 || true)"; do
  if [ -x "$candidate" ] && "$candidate" -c 'import cffi, numpy, pytest' >/dev/null 2>&1; then
    python=$candidate; break
  fi
done
[ -n "$python" ] || fail "no python3 with cffi, numpy and pytest"

echo "== installed glevo: info and the main job" >&2
"$glevo" info >/dev/null || fail "glevo info failed"
out=$("$glevo" cga --problem camel --grid 64x64 --generations 200 --seed 1 --json)
grep -q '"reached_optimum":true' <<<"$out" || fail "the main job did not reach the optimum: $out"

echo "== man pages and completion" >&2
"$here/tests/install/test_cli_docs.sh" "$glevo" "$root/usr/share/man/man1" \
  "$root/usr/share/bash-completion/completions/glevo"
if command -v man >/dev/null; then
  page=$(man -l "$root/usr/share/man/man1/glevo-gp.1.gz" 2>/dev/null)
  grep -q -- '--function-set' <<<"$page" || fail "man does not render glevo-gp.1"
fi

echo "== the Python package as installed" >&2
version=$("$glevo" --version | awk '{print $2}')
got=$(PYTHONPATH=$site "$python" -c 'import glevo; print(glevo.__version__)')
[ "$got" = "$version" ] || fail "import glevo gave version '$got', glevo --version $version"
diff <("$glevo" info) <(PYTHONPATH=$site "$python" -m glevo info) >&2 ||
  fail "python3 -m glevo info differs from glevo info"
(cd "$here" && GLEVO_CLI=$glevo GLEVO_LIBRARY=$lib/libglevo.so.0 PYTHONPATH=$site \
  "$python" -m pytest -q -p no:cacheprovider python/tests) || fail "the Python tests failed on the installed package"

echo "== pip install ./python into a venv" >&2
venv=$(mktemp -d)
trap 'rm -rf "$venv"' EXIT
if "$python" -m venv --system-site-packages "$venv" 2>/dev/null; then
  # A copy of python/: pip's setuptools writes build/ and *.egg-info beside the sources.
  cp -r "$here/python" "$venv/src"
  "$venv/bin/python" -m pip install -q --no-build-isolation --no-index "$venv/src" >&2 ||
    fail "pip install ./python failed"
  got=$(cd "$venv" && GLEVO_CDEF=$root/usr/share/glevo/glevo_cdef.h "$venv/bin/python" -c \
        'import glevo, importlib.metadata as m; print(glevo.__version__, m.version("glevo"))')
  [ "$got" = "$version $version" ] || fail "pip-installed glevo: '$got', expected '$version $version'"
else
  echo "test_deb_root: no python3-venv: the pip install is not tried" >&2
fi
echo "test_deb_root: the installed package runs, documents and imports"
