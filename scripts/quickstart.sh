#!/usr/bin/env bash
# One command from a fresh Debian 12 / Ubuntu 24.04 (as root, or with sudo) to a result:
#   scripts/quickstart.sh          install packages, build, run the main job
#   scripts/quickstart.sh --test   the same, then every test (ctest, then a sanitizer build,
#                                  then 20 s of each libFuzzer harness when clang is there,
#                                  then the Debian package built and tested as installed)
#   scripts/quickstart.sh --deb    install packages, build the Debian package and test it
#                                  (then: sudo apt install ./build-deb/glevo_*.deb)
# The GPU is used when EGL offers one; otherwise Mesa's llvmpipe renders in software.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-run}
case "$mode" in run|--run) mode=run ;; --test|test) mode=test ;; --deb|deb) mode=deb ;;
  *) echo "usage: scripts/quickstart.sh [--test | --deb]" >&2; exit 2 ;; esac

packages=(build-essential cmake pkg-config libglew-dev libegl-dev libgl-dev libegl-mesa0
          libgl1-mesa-dri libglfw3-dev libpng-dev libcairo2-dev libfreetype-dev
          fonts-dejavu-core check xvfb xauth clang libclang-rt-dev)
packages+=(zlib1g-dev) # checkpoints' CRC-32
packages+=(libopenmpi-dev openmpi-bin) # islands over MPI (optional: glevo builds without)
packages+=(chromium nodejs) # the WebGL2 page's test in headless Chromium (tests/web, docs/web.md)
packages+=(python3-numpy python3-cffi python3-pytest python3-matplotlib) # python/glevo, its tests and example
packages+=(python3-sklearn python3-sympy) # glevo.SymbolicRegressor's estimator checks, models as SymPy
packages+=(help2man dpkg-dev lintian man-db python3-venv python3-setuptools) # the .deb, its man pages and checks
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
# Debian's nodejs ships npm apart; NodeSource's nodejs bundles it (and conflicts with it).
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "quickstart: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

jobs=$(nproc)
if [ "$mode" = deb ]; then
  scripts/package-deb.sh --test
  echo "quickstart: install it with: sudo apt install ./$(ls build-deb/glevo_*.deb)" >&2
  exit 0
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$jobs"

echo "== glevo info" >&2
./build/glevo info
if ./build/glevo cga --help >/dev/null 2>&1; then
  echo "== main job: cellular GA on the six-hump camel function (Li, Chi, Wan 2008)" >&2
  ./build/glevo cga --problem camel --grid 64x64 --generations 200 --seed 1 \
    --snapshot-final build/camel-population.png
fi

if [ "$mode" = test ]; then
  # puppeteer-core for test_web (it drives the chromium above: it downloads no browser).
  if [ ! tests/web/node_modules/.package-lock.json -nt tests/web/package-lock.json ]; then
    (cd tests/web && npm ci --no-audit --no-fund --loglevel=error)
  fi
  echo "== layers (docs/architecture.md)" >&2
  scripts/check-layers.sh
  scripts/check-rooms.py
  echo "== tests" >&2
  (cd build && ctest --output-on-failure -j"$jobs")
  echo "== Python package tests (python/tests; docs/python.md)" >&2
  scripts/test-python.sh build
  echo "== tests again under AddressSanitizer and UBSan" >&2
  cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DGLEVO_SANITIZE=ON >/dev/null
  cmake --build build-sanitize -j"$jobs"
  # LP_NUM_THREADS=0: llvmpipe renders on the calling thread. Its worker threads, torn down
  # at exit while LeakSanitizer stops the world, once crashed LSan's tracer after every check
  # of a suite had passed ("Tracer caught signal 11").
  (cd build-sanitize && ASAN_OPTIONS=detect_leaks=1 LP_NUM_THREADS=0 ctest --output-on-failure -j"$jobs")
  echo "== Python package tests on the sanitizer build's library" >&2
  scripts/test-python.sh build-sanitize
  if command -v clang >/dev/null; then
    echo "== fuzzing every parser for 20 s (libFuzzer; docs/testing.md)" >&2
    scripts/fuzz.sh 20
  fi
  echo "== the Debian package, tested as installed (scripts/package-deb.sh)" >&2
  scripts/package-deb.sh --test
fi
