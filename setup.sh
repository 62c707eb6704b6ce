#!/usr/bin/env bash
# xspmd set-up: installs what is missing (Debian packages only), configures
# and builds in build/, then runs either the bundled example or the tests.
#
#   ./setup.sh example   build, then run the main job on a bundled example
#   ./setup.sh test      build, then run the whole test suite (lit + ctest)
#
# Environment: BUILD_DIR (default build), JOBS (default: all cores),
# XSPMD_NO_APT=1 to skip the package check.
set -euo pipefail

mode=${1:-example}
case "$mode" in
  example|test) ;;
  *) echo "usage: $0 example|test" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "$0")" && pwd)
build=${BUILD_DIR:-$root/build}
jobs=${JOBS:-$(nproc)}

# Everything comes from Debian's registry. mlir-22-tools must be named
# explicitly: MLIR's CMake package refers to mlir-tblgen & co.
packages=(
  cmake ninja-build g++ python3
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  libfmt-dev libcli11-dev libopenblas-dev libeigen3-dev
  libgtest-dev libbenchmark-dev
  python3-dev pybind11-dev python3-numpy python3-pytest
  python3-torch libtorch-dev
)

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
      missing+=("$p")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "setup: installing ${missing[*]}"
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root or sudo to install ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"
}

[ "${XSPMD_NO_APT:-0}" = 1 ] || install_missing

cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j "$jobs"

if [ "$mode" = example ]; then
  exec "$root/scripts/run-example.sh" "$build"
fi

# The whole suite: lit prints its summary, then ctest, then pytest; fail if
# any fails.
status=0
cmake --build "$build" --target check-xspmd-lit -j "$jobs" || status=1
ctest --test-dir "$build" --output-on-failure -j "$jobs" || status=1
cmake --build "$build" --target check-xspmd-python || status=1
if [ $status -ne 0 ]; then
  echo "setup: TESTS FAILED" >&2
else
  echo "setup: all tests passed"
fi
exit $status
