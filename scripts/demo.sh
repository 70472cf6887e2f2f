#!/usr/bin/env bash
# The main job, on the samples the repository makes itself (samples/, written by
# tools/make_samples): an Oblivion script decompiled, edited and recompiled; conditions shown; a
# plugin exported as text, edited and imported; a save's player shown and edited; then a small
# load order (samples/loadorder): its order, conflicts (as text and as a page), check, clean
# and a Bashed Patch.
#   scripts/demo.sh            (or scripts/demo.sh PLUGIN to run the plugin part on another plugin)
# TESMOD_DEMO_CLI=PATH uses a tesmod already built (no setup, no build); TESMOD_DEMO_OUT=DIR
# writes the demo's files there instead of build/demo (emptied first, as build/demo is). The
# tests run it so.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
plugin=${1:-$root/samples/TesmodSample.esp}
oblivion=$root/samples/TesmodSampleOblivion.esp
save=$root/samples/TesmodSample.ess
# The build's progress while it runs (its own output is not shown): the share of the steps done,
# from the marks cmake's Makefiles leave in CMakeFiles/Progress; one updating line on a terminal,
# every tenth percent otherwise. It stops when the demo does.
build_progress() {
  local marks=$root/build/CMakeFiles/Progress shown=-1 total finished percent
  while kill -0 "$$" 2>/dev/null && sleep 2; do
    [[ -s $marks/count.txt ]] || continue
    total=$(<"$marks/count.txt")
    finished=$(find "$marks" -type f ! -name count.txt 2>/dev/null | wc -l)
    ((total > 0)) || continue
    percent=$((finished * 100 / total))
    if [[ -t 1 ]]; then
      ((percent != shown)) && printf '\r  %3d%%' "$percent"
    elif ((percent / 10 != shown / 10)); then
      printf '  %3d%%\n' "$percent"
    fi
    shown=$percent
  done
}
if [[ -n ${TESMOD_DEMO_CLI:-} ]]; then
  tesmod=$TESMOD_DEMO_CLI
  [[ $tesmod == */* ]] && tesmod=$(realpath -- "$tesmod")  # the load-order part runs from $root
  echo "using $tesmod (TESMOD_DEMO_CLI; nothing built)"
else
  echo "building tesmod into $root/build (5-8 minutes on 2 cores the first time; seconds once built)..."
  build_progress &
  progress=$!
  "$root/scripts/setup.sh" --demo  # what building needs (not the browser the tests use)
  "$root/scripts/release_build.sh" tesmod_cli >/dev/null  # the test command's build folder and options
  tesmod=$root/build/tools/tesmod/tesmod
  kill "$progress" 2>/dev/null || true
  wait "$progress" 2>/dev/null || true
  if [[ -t 1 ]]; then printf '\r  built\n'; else echo "  built"; fi
fi
# What the demo writes (edited plugins, exported folders, sources) stays here afterwards; the
# next run starts it afresh.
out=${TESMOD_DEMO_OUT:-$root/build/demo}
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd -P)  # absolute: the page's file:// address is made from it
trap 'echo; echo "The demo'"'"'s files are in $out (kept; the next run replaces them)."' EXIT
# Section titles in bold on a terminal only: a log or a pipe gets no escape codes.
if [[ -t 1 ]]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
step() { printf '\n%s== %s%s\n' "$bold" "$*" "$plain"; }
show() { printf '$ tesmod'; printf ' %q' "${@:2}"; printf '\n'; }
run() { show "$@"; "$@"; }
# run_status COMMAND...: for commands whose exit 1 means "found something" (check, a dry run
# that would clean): the exit status is shown, and the demo goes on.
run_status() {
  local status=0
  show "$@"
  "$@" || status=$?
  echo "(exit status $status)"
}
# run_grep PATTERN COMMAND...: shows the command and the filter, then runs both.
run_grep() {
  local pattern=$1
  shift
  printf '$ tesmod'; printf ' %q' "${@:2}"; printf " | grep -iE '%s'\n" "$pattern"
  "$@" | grep -iE "$pattern"
}

step "A plugin: what it holds, and that it is written back byte for byte"
run "$tesmod" info "$plugin"
run "$tesmod" verify --deep "$plugin"

step "Conditions, as one line of text each (Skyrim, then Oblivion)"
run "$tesmod" conditions "$plugin"
run "$tesmod" conditions "$oblivion"

step "An Oblivion script: decompiled, one line edited, compiled back into the plugin"
show "$tesmod" script decompile "$oblivion" TesmodSampleQuestScript
echo "  (saved as $out/quest.txt too)"
"$tesmod" script decompile "$oblivion" TesmodSampleQuestScript | tee "$out/quest.txt"
sed -i 's/if timer > 5/if timer > 10/I' "$out/quest.txt"
echo "(edited: if timer > 5  ->  if timer > 10)"
run "$tesmod" script compile "$oblivion" --source "$out/quest.txt" -o "$out/Oblivion-edited.esp"
run_grep "timer >" "$tesmod" script decompile "$out/Oblivion-edited.esp" TesmodSampleQuestScript

step "The plugin as a folder of text files, edited, and imported back"
run "$tesmod" export "$plugin" "$out/text"
printf '$ (cd %q && find . -type f | sort)\n' "$out/text"
(cd "$out/text" && find . -type f | sort)
coin=$(grep -rl 'EDID "TesmodSampleCoin"' "$out/text" | head -1)
if [[ -n $coin ]]; then
  echo "--- $coin"
  cat "$coin"
  # A number, a condition and a Papyrus property, edited as text.
  sed -i 's/DATA value=25/DATA value=30/; s/int Value = 25/int Value = 30/' "$coin"
  info=$(grep -rl 'GetLevel() >= 5.0' "$out/text" | head -1)
  [[ -n $info ]] && sed -i 's/GetLevel() >= 5.0/GetLevel() >= 10.0/' "$info"
  echo "(edited: DATA value=25 -> 30, the script property Value 25 -> 30, GetLevel() >= 5.0 -> 10.0)"
fi
run "$tesmod" import "$out/text" -o "$out/edited.esp"
run "$tesmod" diff "$plugin" "$out/edited.esp" || true
run "$tesmod" verify --deep "$out/edited.esp"
step "Unedited, the folder gives back the very same bytes"
run "$tesmod" export "$plugin" "$out/again"
run "$tesmod" import "$out/again" -o "$out/again.esp"
printf '$ cmp %q %q\n' "$plugin" "$out/again.esp"
cmp "$plugin" "$out/again.esp" && echo "identical: $(stat -c %s "$plugin") bytes"

step "An Oblivion save: the player, then an edit"
run "$tesmod" save info "$save"
run "$tesmod" save npc "$save" --player
run "$tesmod" save edit "$save" --player --set skill.Blade=75 --set attribute.Strength=60 -o "$out/edited.ess"
run_grep "attributes|Blade" "$tesmod" save npc "$out/edited.ess" --player

# The sample load order: a Skyrim SE Data folder with plugins.txt (samples/loadorder, made by
# tools/make_samples/load_order_sample.cpp). Paths are shown relative to the repository.
cd "$root"
data=samples/loadorder
step "A load order (samples/loadorder): which plugin loads where; TesmodDemoAddon.esp needs a master that is not there"
run "$tesmod" load-order --data "$data"

step "Conflicts: every record more than one plugin has, and which version wins"
run "$tesmod" conflicts --data "$data"

step "The conflicts as a page to open in a browser"
run "$tesmod" conflicts --data "$data" --html "$out/conflicts.html"
echo "open file://$out/conflicts.html"

step "Check: the missing master, and anything else wrong, per plugin (exit 1 when something is found)"
run_status "$tesmod" check --data "$data"

step "Clean, as a dry run over every active plugin: ITMs removed, deleted references undeleted"
run_status "$tesmod" clean --all --data "$data" --dry-run

step "Clean one plugin into a new file, then check the result is clean"
mkdir -p "$out/cleaned"
run "$tesmod" clean "$data/TesmodDemoDirty.esp" --data "$data" -o "$out/cleaned/TesmodDemoDirty.esp"
run_status "$tesmod" clean "$out/cleaned/TesmodDemoDirty.esp" --data "$data" --dry-run

step "A Bashed Patch: refused while an active plugin's master is missing"
run_status "$tesmod" patch --data "$data" -o "$out/Bashed Patch, 0.esp"

step "With TesmodDemoAddon.esp deactivated, the patch merges the leveled lists two plugins each add to"
sed 's/^[*]TesmodDemoAddon[.]esp/TesmodDemoAddon.esp/' "$data/plugins.txt" >"$out/plugins.txt"
echo "(plugins.txt copied to $out/plugins.txt, without the * before TesmodDemoAddon.esp)"
run "$tesmod" patch --data "$data" --plugins "$out/plugins.txt" -o "$out/Bashed Patch, 0.esp"
run_grep 'EDID|LVLO' "$tesmod" export "$out/Bashed Patch, 0.esp" --stdout --data "$data"
