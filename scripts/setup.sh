#!/usr/bin/env bash
# Installs what building and testing tesmod needs on Debian 12 (with sudo when not root),
# skipping apt entirely when everything is already there.
set -euo pipefail
packages=(build-essential cmake libdeflate-dev zlib1g-dev libfmt-dev libcli11-dev nlohmann-json3-dev
          libgtest-dev libpng-dev libyaml-cpp-dev libre2-dev python3 git pkg-config python3-dev pybind11-dev python3-pytest
          python3-pip python3-venv)
# The conflicts page's browser tests: headless Chromium and Pillow for its screenshots. The demo
# (`--demo`) builds and runs the CLI only and skips their download.
if [[ "${1:-}" != "--demo" ]]; then packages+=(chromium python3-pil); fi
if [[ "${1:-}" == "--bench" ]]; then packages+=(libbenchmark-dev hyperfine time); fi
if [[ "${1:-}" == "--fuzz" ]]; then packages+=(clang-14 libclang-rt-14-dev); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
