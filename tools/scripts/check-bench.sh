#!/usr/bin/env bash
# Fails when `reversi-engine bench` visits another number of nodes than tools/bench-nodes records. The node
# total is the search's fingerprint: a commit that changes the search on purpose updates the file and says
# so in its message; any other change to it is a bug.
# Usage: tools/scripts/check-bench.sh BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:?usage: check-bench.sh BUILD_DIR}
expected=$(tr -d '[:space:]' < tools/bench-nodes)
line=$(echo bench | "$dir/protocol/reversi-engine" 2>/dev/null | grep '^bench ')
nodes=$(echo "$line" | sed -n 's/.* nodes \([0-9]*\) .*/\1/p')
if [ "$nodes" != "$expected" ]; then
  echo "check-bench: bench visited ${nodes:-?} nodes, tools/bench-nodes says $expected ($line)." >&2
  echo "If the search changed on purpose, write the new total to tools/bench-nodes and say so in the commit." >&2
  exit 1
fi
echo "check-bench: $nodes nodes, as recorded" >&2
