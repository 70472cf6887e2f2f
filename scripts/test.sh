#!/usr/bin/env bash
# Every test: set up, build and run the suite, then build and run it again under
# AddressSanitizer + UndefinedBehaviorSanitizer. Tests that need the corpus read it from
# $TESMOD_CORPUS or ../shared/corpus (with CI=true a missing corpus fails).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
jobs=$(nproc)

echo "== release build and tests"
"$root/scripts/build.sh" "$root/build" -DCMAKE_BUILD_TYPE=Release -DTESMOD_TESTS=ON
ctest --test-dir "$root/build" -j"$jobs" --output-on-failure

echo "== ASan + UBSan build and tests"
"$root/scripts/build.sh" "$root/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTESMOD_SANITIZE=ON -DTESMOD_TESTS=ON
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir "$root/build-asan" -j"$jobs" --output-on-failure
echo "== all tests passed"
