#!/usr/bin/env bash
# The Python package's tests (python/tests) against a build tree's library:
#   scripts/test-python.sh [BUILD_DIR]      (default build; quickstart --test runs it after ctest)
# The interpreter must have Debian's python3-cffi, python3-numpy and python3-pytest:
# /usr/bin/python3 has them where the packages are installed, while `python3` on PATH may be
# another one (pyenv, a venv) without them, so the first that imports all three is used, and
# named. A sanitizer build's library (GLEVO_SANITIZE) is loaded with its runtime preloaded.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
python=""
for candidate in /usr/bin/python3 "$(command -v python3 || true)"; do
  if [ -n "$candidate" ] && [ -x "$candidate" ] &&
     "$candidate" -c 'import cffi, numpy, pytest' >/dev/null 2>&1; then
    python=$candidate
    break
  fi
done
if [ -z "$python" ]; then
  echo "test-python: no python3 with cffi, numpy and pytest (apt install python3-cffi python3-numpy python3-pytest)" >&2
  exit 1
fi
echo "test-python: $python ($("$python" --version 2>&1)), library $build/libglevo.so.0" >&2
export GLEVO_LIBRARY=$build/libglevo.so.0 PYTHONPATH=python${PYTHONPATH:+:$PYTHONPATH}
if grep -q '^GLEVO_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
  # The interpreter is not instrumented: ASan's runtime must come first, and Python's own
  # allocations at exit are not the library's leaks.
  export LD_PRELOAD="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)"
  export ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}
fi
set +e
"$python" -m pytest -q -p no:cacheprovider python/tests
rc=$?
set -e
# pytest exits 5 when it collected no test: for this suite that means it went missing.
if [ $rc -eq 5 ]; then
  echo "test-python: pytest collected no tests in python/tests" >&2
  exit 1
fi
exit $rc
