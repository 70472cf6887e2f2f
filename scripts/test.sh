#!/usr/bin/env bash
# Every test: set up, build and run the suite, then build and run it again under
# AddressSanitizer + UndefinedBehaviorSanitizer. Tests that need the corpus read it from
# $TESMOD_CORPUS (a relative path is taken from the directory this command is started in) or
# ../shared/corpus beside the repository. A TESMOD_CORPUS that is not a directory stops the run;
# with CI=true a missing corpus fails. The last line counts passed, failed and skipped tests, and
# the run fails if any test skipped although a corpus was there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
start=$PWD
"$root/scripts/setup.sh"
jobs=$(nproc)

corpus=$("$root/scripts/resolve_corpus.sh" "$start")
if [[ -n $corpus ]]; then
  export TESMOD_CORPUS=$corpus
  echo "== corpus: $corpus"
else
  unset TESMOD_CORPUS
  echo "== no corpus (set TESMOD_CORPUS or place it at ../shared/corpus): corpus tests will skip"
fi

reports=()
status=0
run_suite() {  # NAME BUILD_DIR BUILD_COMMAND...
  local name=$1 dir=$2
  shift 2
  echo "== $name build and tests"
  "$@"
  rm -f "$dir/ctest-junit.xml"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$dir" -j"$jobs" --output-on-failure --output-junit "$dir/ctest-junit.xml" || status=1
  reports+=("$name=$dir/ctest-junit.xml")
}

# The release half builds in build/ exactly as scripts/demo.sh does (scripts/release_build.sh),
# so a demo run first leaves it less to compile; it builds and tests the Python module too (an
# ASan-built extension would need the sanitizer runtime preloaded into Python). The ASan half
# builds libtesmod as a shared library, so that both kinds are built, installed and linked
# against (installed_consumer) on every run.
run_suite release "$root/build" "$root/scripts/release_build.sh"
# -O1 -g1 rather than RelWithDebInfo's -O2 -g: the level AddressSanitizer is meant for, with line
# tables for its stack traces; the sanitizer build is the slower half of the command, and this
# keeps the command inside CI's time.
if ((status == 0)); then
  run_suite asan "$root/build-asan" "$root/scripts/build.sh" "$root/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DTESMOD_SANITIZE=ON -DTESMOD_TESTS=ON -DBUILD_SHARED_LIBS=ON
fi

echo "== summary"
summary_status=0
python3 "$root/scripts/test_summary.py" ${corpus:+--corpus "$corpus"} "${reports[@]}" || summary_status=$?
if ((status != 0 || summary_status != 0)); then exit 1; fi
