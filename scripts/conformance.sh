#!/usr/bin/env bash
# Runs the generic scenarios of the MCP conformance suite against `pks serve`.
# The suite needs Node 22, fetched as the `node` npm package by npx.
set -euo pipefail
cd "$(dirname "$0")/.."

SCENARIOS=(server-initialize ping tools-list dns-rebinding-protection logging-set-level server-sse-multiple-streams)
PORT=${PKS_CONFORMANCE_PORT:-18787}
PROXY_PORT=$((PORT + 1))
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

npm run --silent build
PKS_LOG=silent node dist/src/main.js serve --root "$work" --port "$PORT" >"$work/serve.out" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do grep -q "key " "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
key=$(grep -o 'pks_[0-9A-Za-z]*' "$work/serve.out" | head -n 1)
[ -n "$key" ] || { cat "$work/serve.out"; echo "pks serve did not start" >&2; exit 1; }
node --import tsx scripts/conformance-proxy.ts "$PROXY_PORT" "$PORT" "$key" &
pids+=($!)
sleep 0.5

failed=0
for s in "${SCENARIOS[@]}"; do
  echo "== $s"
  npm_config_engine_strict=false npx -y -p node@22 -p @modelcontextprotocol/conformance@0.1 conformance server \
    --url "http://localhost:$PROXY_PORT/mcp" --scenario "$s" >"$work/$s.log" 2>&1 && rc=0 || rc=$?
  grep -v "npm warn" "$work/$s.log" || true
  [ "$rc" -eq 0 ] || failed=$((failed + 1))
done
echo "conformance: $(( ${#SCENARIOS[@]} - failed )) passed, $failed failed"
[ "$failed" -eq 0 ]
