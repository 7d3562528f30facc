#!/usr/bin/env bash
# Builds kube-apiserver from the Go module proxy, for side-by-side benchmarks against the same etcd
# (bench/kube/compare.ts). Not part of the test suite. Usage:
#   bash bench/kube/build-kube-apiserver.sh [VERSION] [OUT_DIR]
# VERSION defaults to 1.35.4, OUT_DIR to ~/.cache/kube-bench; prints the binary's path last.
#
# k8s.io/kubernetes cannot be `go install`ed: its go.mod points its staging modules (k8s.io/api,
# k8s.io/apiserver, ...) at ./staging by replace directives, which only hold inside its own
# repository. So a small module is made here that imports the kube-apiserver command and replaces
# each of those staging modules by its published twin (v0.X.Y for v1.X.Y), read from the go.mod
# the proxy serves.
set -euo pipefail

VERSION="${1:-1.35.4}"
OUT="${2:-$HOME/.cache/kube-bench}"
STAGING_VERSION="v0.${VERSION#1.}"
BIN="$OUT/kube-apiserver-v$VERSION"

if [ -x "$BIN" ]; then
  echo "$BIN"
  exit 0
fi
command -v go >/dev/null || { echo "go is not on PATH" >&2; exit 1; }

SRC="$OUT/src-v$VERSION"
mkdir -p "$SRC"
cd "$SRC"

GOMOD=$(go mod download -json "k8s.io/kubernetes@v$VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')
[ -f "$GOMOD" ] || { echo "could not download k8s.io/kubernetes@v$VERSION's go.mod" >&2; exit 1; }

cat >go.mod <<MOD
module kube-bench/apiserver

go 1.24

require k8s.io/kubernetes v$VERSION
MOD
# Every staging module named in a replace of the real go.mod, pointed at its published version.
grep -oE '^[[:space:]]*k8s\.io/[a-z0-9-]+ => \./staging/src/k8s\.io/[a-z0-9-]+' "$GOMOD" |
  awk -v v="$STAGING_VERSION" '{ printf "replace %s => %s %s\n", $1, $1, v }' >>go.mod

# The command, as the upstream binary wires it: cobra command, logging and metrics registration.
cat >main.go <<'GO'
// kube-apiserver for benchmarks: the upstream command, unchanged.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() {
	os.Exit(cli.Run(app.NewAPIServerCommand()))
}
GO

go mod tidy >&2
# Low priority: the machine is shared.
nice -n 10 go build -trimpath -ldflags "-s -w -X k8s.io/component-base/version.gitVersion=v$VERSION" -o "$BIN" . >&2
echo "$BIN"
