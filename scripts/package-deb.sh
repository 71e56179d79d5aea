#!/usr/bin/env bash
# The Debian package (CPack; cmake/packaging.cmake), then, with --test, the package tried as
# installed: unpacked into a scratch root (no root rights or changes to this machine needed),
# its glevo, man pages, bash completion and Python package run from there, lintian on top
# where it is installed.
#   scripts/package-deb.sh          build build-deb/glevo_<version>_amd64.deb
#   scripts/package-deb.sh --test   the same, then the checks (quickstart --test runs this)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-build}
case "$mode" in build|--build) mode=build ;; --test|test) mode=test ;;
  *) echo "usage: scripts/package-deb.sh [--test]" >&2; exit 2 ;; esac

# A build of its own: the package's paths are /usr's (the multiarch library directory), which
# a developer's build/ (installing to /usr/local) does not use. No tests to build.
cmake -S . -B build-deb -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr \
  -DGLEVO_BUILD_TESTS=OFF >/dev/null
cmake --build build-deb -j"$(nproc)"
rm -f build-deb/glevo_*.deb
(cd build-deb && cpack -G DEB >/dev/null)
deb=$(ls build-deb/glevo_*.deb)
echo "package-deb: $deb" >&2
[ "$mode" = test ] || exit 0

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
echo "== the package's control file" >&2
dpkg-deb -f "$deb" Package Version Depends Recommends >&2
tests/install/test_deb_root.sh "$root"
if command -v lintian >/dev/null; then
  echo "== lintian (errors fail; warnings are listed in docs/install.md with why each stays)" >&2
  lintian --fail-on error --no-tag-display-limit "$deb" >&2
fi
