#!/usr/bin/env bash
# make bench-serve: `folio serve` under load from wrk on loopback, beside `folio batch --jobs 2`
# on the same documents (W1: Templates/weekly-summary.yaml with one patient record per request).
#
# Prints, at 1, 2, 8 and 64 connections: requests/s, p50/p99 latency, errors, server RSS; then an
# overload run (64 connections, --queue 4) that must answer 503s rather than grow; then a soak of
# SOAK_SECONDS (default 600) printing the server's RSS every 30 s.
# DURATION (seconds per run, default 10) and SOAK_SECONDS bound the time.
set -euo pipefail
cd "$(dirname "$0")/.."
FOLIO=.build/release/folio
DURATION=${DURATION:-10}
SOAK_SECONDS=${SOAK_SECONDS:-600}
WORK=$(mktemp -d /tmp/folio-bench-serve.XXXXXX)
SERVER_PID=""
cleanup() { [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

# The record: the first patient of Samples/patients.jsonl; the batch gets 300 copies of it.
head -n 1 Samples/patients.jsonl > "$WORK/record.json"
for _ in $(seq 300); do cat "$WORK/record.json"; done > "$WORK/records.jsonl"
cat > "$WORK/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local file = io.open("$WORK/record.json", "rb")
wrk.body = file:read("*a")
file:close()
LUA

# The server's RSS with its render worker processes (folio __render-worker), which are its children.
rss_mb() {
  local total=0 pid
  for pid in "$1" $(pgrep -P "$1" || true); do
    total=$(( total + $(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0) ))
  done
  awk -v kb="$total" 'BEGIN {printf "%.1f", kb / 1024}'
}
peak_mb() { awk '/^VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

# The server logs one JSON line per request (as in production); the port comes from its "listening" line.
start_server() {
  "$FOLIO" serve --port 0 --templates Templates --assets Templates "$@" 2>"$WORK/server.log" &
  SERVER_PID=$!
  for _ in $(seq 400); do
    PORT=$(grep -o '"message":"listening".*"port":[0-9]*' "$WORK/server.log" 2>/dev/null | grep -o '[0-9]*$' || true)
    [ -n "${PORT:-}" ] && curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null && return 0
    sleep 0.05
  done
  echo "server did not start"; cat "$WORK/server.log"; exit 1
}
stop_server() { kill -TERM "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=""; }

URL_PATH=/v1/templates/weekly-summary/render

echo "== folio batch --jobs 2, 300 W1 PDFs (the throughput to match)"
start=$(date +%s.%N)
"$FOLIO" batch Templates/weekly-summary.yaml --data "$WORK/records.jsonl" --out "$WORK/batch" --jobs 2 --quiet
end=$(date +%s.%N)
BATCH_RATE=$(awk -v s="$start" -v e="$end" 'BEGIN {printf "%.1f", 300 / (e - s)}')
echo "batch: $BATCH_RATE documents/s"
echo

echo "== folio serve (2 workers, queue 64), W1 PDF over HTTP, ${DURATION} s per run"
start_server
printf "%-12s %10s %9s %9s %8s %8s %9s\n" connections "requests/s" "p50 ms" "p99 ms" errors non-2xx "RSS MB"
for connections in 1 2 8 64; do
  threads=$(( connections < 2 ? 1 : 2 ))
  out=$(wrk -t"$threads" -c"$connections" -d"${DURATION}s" --timeout 30s --latency -s "$WORK/post.lua" "http://127.0.0.1:$PORT$URL_PATH")
  rate=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
  p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
  errors=$(echo "$out" | awk '/Socket errors/ {gsub(",", ""); print $4 + $6 + $8 + $10}')
  non2xx=$(echo "$out" | awk '/Non-2xx/ {print $5}')
  printf "%-12s %10s %9s %9s %8s %8s %9s\n" "$connections" "$rate" "$p50" "$p99" "${errors:-0}" "${non2xx:-0}" "$(rss_mb "$SERVER_PID")"
  [ "$connections" = 2 ] && SERVE_RATE=$rate
done
echo "peak RSS of the server process: $(peak_mb "$SERVER_PID") MB"
echo "throughput at 2 connections / batch --jobs 2: $(ratio "$SERVE_RATE" "$BATCH_RATE")"
echo
stop_server

echo "== what worker processes cost: 2 and 8 connections, worker processes and --in-process, alternately"
printf "%-12s %14s %14s %7s\n" connections "workers req/s" "in-process" ratio
for connections in 2 8; do
  for mode in workers in-process workers in-process; do
    if [ "$mode" = in-process ]; then start_server --in-process; else start_server; fi
    out=$(wrk -t2 -c"$connections" -d"${DURATION}s" --timeout 30s -s "$WORK/post.lua" "http://127.0.0.1:$PORT$URL_PATH")
    rate=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    if [ "$mode" = workers ]; then WORKERS_SUM=$(awk -v a="${WORKERS_SUM:-0}" -v b="$rate" 'BEGIN {print a + b}')
    else THREADS_SUM=$(awk -v a="${THREADS_SUM:-0}" -v b="$rate" 'BEGIN {print a + b}'); fi
    stop_server
  done
  printf "%-12s %14.1f %14.1f %7s\n" "$connections" "$(awk -v s="$WORKERS_SUM" 'BEGIN {print s / 2}')" \
    "$(awk -v s="$THREADS_SUM" 'BEGIN {print s / 2}')" "$(ratio "$WORKERS_SUM" "$THREADS_SUM")"
  WORKERS_SUM=0; THREADS_SUM=0
done
echo "(target: worker processes at least 0.95 of in-process requests/s)"
echo

echo "== overload: 64 connections, --queue 4 (expect 503s, flat memory)"
start_server --queue 4
out=$(wrk -t2 -c64 -d"${DURATION}s" --timeout 30s --latency -s "$WORK/post.lua" "http://127.0.0.1:$PORT$URL_PATH")
echo "$out" | grep -E "Requests/sec|Non-2xx|Socket errors" || true
echo "RSS: $(rss_mb "$SERVER_PID") MB, peak $(peak_mb "$SERVER_PID") MB"
echo
stop_server

if [ "$SOAK_SECONDS" -gt 0 ]; then
  echo "== soak: 8 connections for ${SOAK_SECONDS} s, RSS every 30 s"
  start_server
  wrk -t2 -c8 -d"${SOAK_SECONDS}s" --timeout 30s -s "$WORK/post.lua" "http://127.0.0.1:$PORT$URL_PATH" > "$WORK/soak.txt" &
  WRK_PID=$!
  elapsed=0
  while kill -0 "$WRK_PID" 2>/dev/null; do
    printf "%5d s  RSS %s MB\n" "$elapsed" "$(rss_mb "$SERVER_PID")"
    sleep 30; elapsed=$((elapsed + 30))
  done
  grep -E "Requests/sec|Non-2xx|Socket errors|requests in" "$WORK/soak.txt" || true
  stop_server
fi
