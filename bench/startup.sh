#!/bin/sh
# bench/startup.sh: start a node on a fresh SQLite data directory, wait until health answers, stop it.
# Time it from outside: farm-bench -n 9 -- sh bench/startup.sh
# Prints the milliseconds from launch to the first healthy answer and the node's RSS then (KiB).
set -eu
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
port=${BENCH_PORT:-18123}
start=$(date +%s%N)
SVC_DATA_DIR="$dir" SVC_SERVICE_LISTEN_ADDR="127.0.0.1:$port" SVC_LOG_LEVEL=error \
  node_modules/.bin/node src/cli/main.ts serve --dev >/dev/null 2>&1 &
pid=$!
until curl -fs "http://127.0.0.1:$port/api/pvlt/1.0/data/info/health" >/dev/null 2>&1; do
  sleep 0.005
done
end=$(date +%s%N)
rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
kill "$pid"
wait "$pid" || true
rm -rf "$dir"
echo "healthy after $(( (end - start) / 1000000 )) ms, rss ${rss} KiB"
