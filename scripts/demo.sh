#!/usr/bin/env bash
# The main job: set up, build, and read, check and rewrite a plugin.
#   scripts/demo.sh [PLUGIN]     (default: the sample plugin the repository carries)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
plugin=${1:-$root/samples/TesmodSample.esp}
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$root/build" -DCMAKE_BUILD_TYPE=Release -DTESMOD_TESTS=OFF
tesmod=$root/build/tools/tesmod/tesmod
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
set -x
"$tesmod" info "$plugin" --subrecords
"$tesmod" dump "$plugin" --type MISC --type REFR
"$tesmod" verify "$plugin"
"$tesmod" rewrite "$plugin" -o "$out/rewritten.esp"
cmp "$plugin" "$out/rewritten.esp"
