#!/usr/bin/env bash
# The release build that scripts/demo.sh and scripts/test.sh share: one folder (build/), configured
# with one set of options, so that whichever runs first leaves the other only what it did not
# build itself. The Python module is built for Debian's /usr/bin/python3 (the one python3-pytest
# belongs to).
#   scripts/release_build.sh [TARGET...]     (every target when none is named)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
python=$(command -v /usr/bin/python3 || command -v python3)
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release -DTESMOD_TESTS=ON -DTESMOD_PYTHON=ON \
  -DPython_EXECUTABLE="$python" >/dev/null
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --build "$root/build" -j"$(nproc)" "${targets[@]}"
