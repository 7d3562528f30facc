#!/usr/bin/env bash
# Runs the test suite (or the paths given, as `npm test -- PATH…` takes them) on Node MAJOR, fetched
# by scripts/fetch-node.sh. Where that Node uses better-sqlite3 (before 24, see
# src/storage/sqlite/driver.ts), the installed addon is swapped for one built for its ABI by
# scripts/build-native.sh during the run and put back afterwards, whatever the outcome: don't run
# other tests in the same tree meanwhile. From Node 24 on the store runs on node:sqlite and nothing
# is built; test files that open better-sqlite3 themselves are left out there.
set -euo pipefail
cd "$(dirname "$0")/.."
major=${1:?usage: test-on-node.sh MAJOR [PATH…]}
shift

node_bin=$(bash scripts/fetch-node.sh "$major")
args=("$@")
if [ "$major" -lt 24 ]; then
  built=$(bash scripts/build-native.sh "$major")
  addon=node_modules/better-sqlite3/build/Release/better_sqlite3.node
  # Renames, not copies over the file: a process that has the addon mapped keeps its own copy.
  mv "$addon" "$addon.installed"
  trap 'mv -f "$addon.installed" "$addon"' EXIT
  cp "$built" "$addon.tmp"
  mv "$addon.tmp" "$addon"
else
  while IFS= read -r f; do args+=("--exclude=$f"); done < <(
    grep -rl --include='*.test.ts' "from 'better-sqlite3'" src bench test || true
  )
fi

echo "testing on Node $("$node_bin" --version)${args[*]:+ (${args[*]})}"
# First on PATH too, so that anything a test starts as plain `node` runs on the same Node.
PATH="$(dirname "$node_bin"):$PATH" "$node_bin" scripts/test.mjs "${args[@]}"
