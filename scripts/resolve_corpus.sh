#!/usr/bin/env bash
# Prints the corpus directory the tests are to read, as an absolute path, or nothing when there
# is none: $TESMOD_CORPUS resolved against the directory the command was started in (not the
# build folder ctest runs in), else ../shared/corpus beside the repository. A TESMOD_CORPUS that
# is set but is not a directory is an error (exit 1), never a silent skip.
#   scripts/resolve_corpus.sh [START_DIR]   (START_DIR: where the user started; default: $PWD)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
start=${1:-$PWD}
if [[ -n ${TESMOD_CORPUS:-} ]]; then
  path=$TESMOD_CORPUS
  [[ $path == /* ]] || path=$start/$path
  if [[ ! -d $path ]]; then
    echo "error: TESMOD_CORPUS='$TESMOD_CORPUS' is not a directory (resolved from $start to $path)" >&2
    exit 1
  fi
  (cd "$path" && pwd)
elif [[ -d $root/../shared/corpus ]]; then
  (cd "$root/../shared/corpus" && pwd)
fi
