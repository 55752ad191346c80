#!/usr/bin/env bash
# Fails when a file includes a header of a layer above its own. Layers, from the bottom:
#   engine/ (engine/data: readers and writers only, below search, evaluation and endgame)
#   protocol/text, protocol/cli, the parsers (reversi_parsers in protocol/CMakeLists.txt)
#   protocol/time, protocol/session (what every front end needs)
#   protocol/uci, protocol/nboard, protocol/web (the front ends, side by side)
#   protocol/dispatch (the session that picks a front end), protocol/transport, protocol/main.cpp
#   tools/, tests/
# Usage: tools/scripts/check-layers.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
bad=0
# forbid FILES... -- REGEX: none of FILES may include a project header whose path matches REGEX.
forbid() {
  local files=()
  while [ "$1" != "--" ]; do files+=("$1"); shift; done
  local regex=$2
  local hits
  hits=$(grep -HnE "^#include \"($regex)" "${files[@]}" 2>/dev/null || true)
  if [ -n "$hits" ]; then
    echo "$hits" | sed 's/^/  /' >&2
    bad=1
  fi
}
mapfile -t engine < <(git ls-files 'engine/*.cpp' 'engine/*.hpp')
mapfile -t data < <(git ls-files 'engine/data/*.cpp' 'engine/data/*.hpp')
mapfile -t protocol < <(git ls-files 'protocol/*.cpp' 'protocol/*.hpp')
layer() { git ls-files "${@/%//*.cpp}" "${@/%//*.hpp}"; }
mapfile -t base < <(layer protocol/text protocol/cli)
mapfile -t time_layer < <(layer protocol/time)
mapfile -t session < <(layer protocol/session)
mapfile -t uci < <(layer protocol/uci)
mapfile -t nboard < <(layer protocol/nboard)
mapfile -t web < <(layer protocol/web)
mapfile -t dispatch < <(layer protocol/dispatch)
mapfile -t parsers < <(git ls-files protocol/uci/uci_commands.?pp protocol/nboard/ggf.?pp \
  protocol/session/engine_options.?pp protocol/transport/line_splitter.?pp protocol/web/json.?pp \
  protocol/web/web_game.?pp protocol/web/web_api.?pp protocol/web/web_output.cpp)

forbid "${engine[@]}" -- "(protocol|tools|tests)/"
forbid "${data[@]}" -- "engine/(search|eval|endgame)/"
forbid "${protocol[@]}" -- "(tools|tests)/"
forbid "${base[@]}" -- "protocol/(time|session|uci|nboard|web|dispatch|transport)/"
forbid "${time_layer[@]}" -- "protocol/(session|uci|nboard|web|dispatch|transport)/"
forbid "${session[@]}" -- "protocol/(uci|nboard|web|dispatch|transport)/"
forbid "${uci[@]}" -- "protocol/(nboard|web|dispatch|transport)/"
forbid "${nboard[@]}" -- "protocol/(uci|web|dispatch|transport)/"
forbid "${web[@]}" -- "protocol/(uci|nboard|dispatch|transport)/"
forbid "${dispatch[@]}" -- "protocol/transport/"
# The parsers (built alone for the fuzz target): the engine, protocol/text and their own headers only (the
# web API's files: protocol/web/ too, all of it in the parsers).
for f in "${parsers[@]}"; do
  hits=$(grep -HnE '^#include ["<]' "$f" | grep -E '"protocol/|<(spdlog|boost)/' |
    grep -vE "\"protocol/text/|\"${f%.?pp}\.hpp\"" | { [[ $f == protocol/web/* ]] && grep -v '"protocol/web/' || cat; } || true)
  if [ -n "$hits" ]; then
    echo "$hits" | sed 's/^/  /' >&2
    bad=1
  fi
done
if [ "$bad" != 0 ]; then
  echo "check-layers: the includes above reach into a higher layer (layers: tools/scripts/check-layers.sh)" >&2
  exit 1
fi
echo "check-layers: $(git ls-files 'engine/*.?pp' 'protocol/*.?pp' | wc -l) files include only their own layer and those below" >&2
