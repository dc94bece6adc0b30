#!/usr/bin/env bash
# Runs the MCP conformance suite's server scenarios against `pks serve`:
# every scenario the suite lists (`conformance list --server`) except those
# below, which use the suite's own fixture tools, resources and prompts
# (a server passes them only by carrying `test_simple_text`,
# `test://watched-resource`, `test_prompt_with_arguments` …, which pks does
# not). A scenario the suite adds later is run, not skipped.
#
#   npm run conformance                 every applicable scenario; exit 1 if any fails
#   npm run conformance -- NAME ...     only these scenarios
#   npm run conformance -- --all        also the fixture scenarios, reported but not counted
#
# The suite needs Node 22, fetched as the `node` npm package by npx.
# PKS_CONFORMANCE_PORT (default 18787) and the port after it are used.
set -euo pipefail
cd "$(dirname "$0")/.."

SUITE=@modelcontextprotocol/conformance@0.1
declare -A FIXTURE=(
  [tools-call-simple-text]="calls the fixture tool test_simple_text"
  [tools-call-image]="calls the fixture tool test_image_content"
  [tools-call-audio]="calls the fixture tool test_audio_content"
  [tools-call-embedded-resource]="calls the fixture tool test_embedded_resource"
  [tools-call-mixed-content]="calls the fixture tool test_multiple_content_types"
  [tools-call-with-logging]="calls the fixture tool test_tool_with_logging"
  [tools-call-error]="calls the fixture tool test_error_handling"
  [tools-call-with-progress]="calls the fixture tool test_tool_with_progress (pks's progress is tested in test/integration/mcp-tools.test.ts)"
  [tools-call-sampling]="calls the fixture tool test_sampling"
  [tools-call-elicitation]="calls the fixture tool test_elicitation"
  [elicitation-sep1034-defaults]="calls the fixture tool test_client_elicitation_defaults"
  [elicitation-sep1330-enums]="calls the fixture tool test_elicitation_sep1330_enums"
  [json-schema-2020-12]="looks for the fixture tool json_schema_2020_12_tool"
  [resources-subscribe]="subscribes to the fixture resource test://watched-resource (pks answers an unknown URI with -32602)"
  [resources-unsubscribe]="subscribes to and unsubscribes from the fixture resource test://watched-resource"
  [completion-complete]="completes an argument of the fixture prompt test_prompt_with_arguments (pks answers an unknown prompt with -32602, as the spec's completion page asks)"
  [resources-read-text]="reads the fixture resource test://static-text"
  [resources-read-binary]="reads the fixture resource test://static-binary"
  [resources-templates-read]="reads the fixture template test://template/{id}/data"
  [prompts-get-simple]="gets the fixture prompt test_simple_prompt"
  [prompts-get-with-args]="gets the fixture prompt test_prompt_with_arguments"
  [prompts-get-embedded-resource]="gets the fixture prompt test_prompt_with_embedded_resource"
  [prompts-get-with-image]="gets the fixture prompt test_prompt_with_image"
)

suite() { npm_config_engine_strict=false npx -y -p node@22 -p "$SUITE" conformance "$@"; }

all=false
wanted=()
for a in "$@"; do
  if [ "$a" = "--all" ]; then all=true; else wanted+=("$a"); fi
done
listed=$(suite list --server 2>/dev/null | sed -n 's/^ *- \([a-z0-9-]*\) .*/\1/p')
[ -n "$listed" ] || { echo "the conformance suite listed no server scenarios" >&2; exit 1; }
SCENARIOS=()
for s in $listed; do
  if [ ${#wanted[@]} -gt 0 ]; then
    [[ " ${wanted[*]} " == *" $s "* ]] && SCENARIOS+=("$s")
  elif [ -z "${FIXTURE[$s]:-}" ] || [ "$all" = true ]; then
    SCENARIOS+=("$s")
  fi
done
for w in "${wanted[@]}"; do
  grep -qx -- "$w" <<<"$listed" || { echo "the suite has no server scenario $w" >&2; exit 2; }
done

PORT=${PKS_CONFORMANCE_PORT:-18787}
PROXY_PORT=$((PORT + 1))
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

npm run --silent build
# The suite's scenarios share one key: lift its rate limit (60 a minute by default), which is not under test.
PKS_LOG=silent PKS_RATE_LIMIT=1000000 node dist/src/main.js serve --root "$work" --port "$PORT" >"$work/serve.out" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do grep -q "key " "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
key=$(grep -o 'pks_[0-9A-Za-z]*' "$work/serve.out" | head -n 1)
[ -n "$key" ] || { cat "$work/serve.out"; echo "pks serve did not start" >&2; exit 1; }
node --import tsx scripts/conformance-proxy.ts "$PROXY_PORT" "$PORT" "$key" &
pids+=($!)
sleep 0.5

passed=()
failed=()
fixture_failed=()
for s in "${SCENARIOS[@]}"; do
  echo "== $s${FIXTURE[$s]:+ (fixture: ${FIXTURE[$s]})}"
  suite server --url "http://localhost:$PROXY_PORT/mcp" --scenario "$s" >"$work/$s.log" 2>&1 && rc=0 || rc=$?
  grep -v "npm warn" "$work/$s.log" || true
  if [ "$rc" -eq 0 ]; then passed+=("$s")
  elif [ -n "${FIXTURE[$s]:-}" ]; then fixture_failed+=("$s")
  else failed+=("$s"); fi
done

echo
echo "conformance ($SUITE): ${#passed[@]} passed, ${#failed[@]} failed"
[ ${#passed[@]} -eq 0 ] || echo "  passed: ${passed[*]}"
[ ${#failed[@]} -eq 0 ] || echo "  failed: ${failed[*]}"
[ ${#fixture_failed[@]} -eq 0 ] || echo "  fixture scenarios failed (not counted): ${fixture_failed[*]}"
if [ "$all" = false ] && [ ${#wanted[@]} -eq 0 ]; then
  echo "  not run (fixture scenarios): ${!FIXTURE[*]}"
fi
[ ${#failed[@]} -eq 0 ]
