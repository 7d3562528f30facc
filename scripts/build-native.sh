#!/usr/bin/env bash
# Builds better-sqlite3's native addon for Node MAJOR (fetched by scripts/fetch-node.sh) from the
# sources npm installed, into .tools/node-MAJOR/better_sqlite3-<version>.node, and prints its path.
# npm install builds the addon for the Node that ran it only; an addon loads only in a Node of the
# same ABI, so each other Node that runs the tests needs its own build (about 60-90 s on 2 cores).
# Idempotent: an existing build of the same better-sqlite3 version is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
major=${1:?usage: build-native.sh MAJOR}

node_dir=$PWD/.tools/node-$major
src=node_modules/better-sqlite3
version=$(node -p "require('./$src/package.json').version")
out=$node_dir/better_sqlite3-$version.node
if [ ! -f "$out" ]; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  # A copy, so the build of the installed addon (the machine's Node's) is left as it is.
  tar cf - -C "$src" --exclude=./build . | tar xf - -C "$scratch"
  # npm runs the package's own build script with npm's bundled node-gyp, under the Node first on
  # PATH, against that Node's headers (nodedir): the fetched Node's.
  (cd "$scratch" && PATH="$node_dir/bin:$PATH" npm_config_nodedir="$node_dir" \
    npm run --silent build-release -- --jobs="$(nproc)" >"$scratch.log" 2>&1) ||
    { cat "$scratch.log" >&2; exit 1; }
  rm -f "$scratch.log"
  cp "$scratch/build/Release/better_sqlite3.node" "$out.tmp"
  mv "$out.tmp" "$out"
fi
echo "$out"
