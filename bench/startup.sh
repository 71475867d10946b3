#!/bin/sh
# bench/startup.sh: start a node on a fresh SQLite data directory, wait until health answers, stop it.
# Time it from outside too: farm-bench -n 9 -- sh bench/startup.sh
#   sh bench/startup.sh          node bin/strongroom.js serve --dev: what `npm start` runs
#   sh bench/startup.sh --npm    through `npm start` itself (npm's own start-up included)
# Prints the milliseconds from launch to the first healthy answer, the CPU time the node used
# until then (user + system, 10 ms resolution: less noisy than wall time on a busy machine) and
# its RSS then.
set -eu
cd "$(dirname "$0")/.."
mode=${1:-node}
dir=$(mktemp -d)
port=${BENCH_PORT:-18123}
export SVC_DATA_DIR="$dir" SVC_SERVICE_LISTEN_ADDR="127.0.0.1:$port" SVC_LOG_LEVEL=error
start=$(date +%s%N)
if [ "$mode" = --npm ]; then
  PATH="$PWD/node_modules/.bin:$PATH" npm start --silent >/dev/null 2>&1 &
else
  node_modules/.bin/node bin/strongroom.js serve --dev >/dev/null 2>&1 &
fi
launched=$!
# One small poller process (a request every 5 ms) rather than a curl per attempt: on 2 cores,
# spawning curl hundreds of times takes CPU from the node being timed.
node_modules/.bin/node --input-type=module -e '
import { get } from "node:http"
const ok = () => new Promise((resolve) => {
  get(process.argv[1], (res) => { res.resume(); resolve(res.statusCode === 200) }).on("error", () => resolve(false))
})
while (!(await ok())) await new Promise((resolve) => setTimeout(resolve, 5))
' "http://127.0.0.1:$port/api/pvlt/1.0/data/info/health"
end=$(date +%s%N)
# The node: the launched process itself, or the one npm started (npm → sh → node).
pid=$launched
if [ "$mode" = --npm ]; then
  for child in $(pgrep -P "$launched"); do
    for node in "$child" $(pgrep -P "$child"); do
      if tr '\0' ' ' <"/proc/$node/cmdline" | grep -q '^node bin/strongroom.js'; then pid=$node; fi
    done
  done
fi
rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
ticks=$(awk '{print $14 + $15}' "/proc/$pid/stat")
kill "$pid"
wait "$launched" || true
rm -rf "$dir"
echo "healthy after $(((end - start) / 1000000)) ms, cpu $((ticks * 1000 / $(getconf CLK_TCK))) ms, rss ${rss} KiB"
