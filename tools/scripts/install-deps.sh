#!/usr/bin/env bash
# Installs the Debian packages the project needs, when any is missing. Idempotent; quiet when all is present.
# clang and libclang-rt-14-dev build the libFuzzer target that the test suite runs briefly; clang-format
# checks the formatting; chromium, chromium-driver and python3-selenium drive the web board in a real browser
# (tests/web/browser_test.py; the test skips, saying why, where they are missing); libhiredis-dev links
# reversi-match's distributed mode and redis-server runs its test (docs/scale.md).
set -euo pipefail
packages=(build-essential cmake ninja-build libboost-dev libspdlog-dev doctest-dev clang libclang-rt-14-dev clang-format
  chromium chromium-driver python3-selenium libhiredis-dev redis-server)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# kubectl validates the Kubernetes manifests (check-deploy.sh): Debian's kubernetes-client, unless a kubectl
# is already there (another package of it would conflict).
command -v kubectl >/dev/null 2>&1 || dpkg-query -W -f='${Status}' kubernetes-client 2>/dev/null |
  grep -q "install ok installed" || missing+=(kubernetes-client)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
