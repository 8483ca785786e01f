#!/usr/bin/env bash
# `openmaps serve` on one core and on two, in one run: /search and /route at random (wrk on
# loopback, one thread, CONNECTIONS connections, SECONDS_EACH seconds each) against a server with
# --threads 1, then one with --threads 2; requests/s, p50, p99, errors and the server's peak RSS
# for each, and the ratios. Then slow clients: HALF_SENT connections that each send half a
# request and wait, and the time /health takes to answer meanwhile.
#   bash scripts/bench-serve-threads.sh
#   SECONDS_EACH=10 bash scripts/bench-serve-threads.sh      # a quick look
set -euo pipefail
. "$(dirname "$0")/bench-env.sh"
BIN=${BIN:-$here/.build/release/openmaps}
SECONDS_EACH=${SECONDS_EACH:-30}
CONNECTIONS=${CONNECTIONS:-8}
HALF_SENT=${HALF_SENT:-1000}
STORE=${STORE:-$OPENMAPS_DATA/openmaps.sqlite}
command -v wrk >/dev/null || { echo "(wrk is not installed: no threads benchmark)"; exit 0; }
work=$BENCH_CACHE/serve-threads
rm -rf "$work" && mkdir -p "$work"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
read -r south west north east < <(python3 - "$STORE" <<'PY'
import sqlite3, sys
row = sqlite3.connect(sys.argv[1]).execute(
    "select min_lat, min_lon, max_lat, max_lon from source where kind = 'osm' order by (name = 'Helsinki') desc, id limit 1").fetchone()
print(*row)
PY
)
cat > "$work/random.lua" <<LUA
-- Searches and routes at random places in the region, the same sequence for every run.
local south, west, north, east = $south, $west, $north, $east
local words = {"cafe", "Esplanadi", "Kamppi", "museum", "restaurant", "Stockmann", "pharmacy", "Senate Square",
  "hotel", "Ateneum", "bank", "Kaisaniemi", "bar", "Aleksanterinkatu", "school", "park"}
local kind = os.getenv("KIND")
math.randomseed(7)
local function point() return south + math.random() * (north - south), west + math.random() * (east - west) end
request = function()
  if kind == "search" then
    return wrk.format("GET", "/search?q=" .. words[math.random(#words)]:gsub(" ", "%%20") .. "&limit=10")
  end
  local a, b = point()
  local c, d = point()
  return wrk.format("GET", string.format("/route/v1/driving/%.6f,%.6f;%.6f,%.6f?overview=full", b, a, d, c))
end
LUA
# One wrk run: "name rps p50 p99 errors".
measure() {  # name port kind
  local out="$work/$1.wrk"
  KIND=$3 wrk -t1 -c"$CONNECTIONS" -d"${SECONDS_EACH}s" --timeout 30s --latency -s "$work/random.lua" \
    "http://127.0.0.1:$2" > "$out" 2>&1 || true
  awk -v name="$1" '
    /Requests\/sec/ { rps = $2 } /^ +50%/ { p50 = $2 } /^ +99%/ { p99 = $2 }
    /Non-2xx/ { bad += $5 } /Socket errors/ { split($0, f, /[ ,]+/); for (i in f) if (f[i] ~ /^[0-9]+$/) bad += f[i] }
    END { printf "%s %s %s %s %d\n", name, rps, p50, p99, bad }' "$out"
}
declare -A rps rss
echo "wrk: 1 thread, $CONNECTIONS connections, ${SECONDS_EACH} s each, loopback; store $STORE"
printf "%-8s %-8s %10s %9s %9s %7s %12s\n" threads path "req/s" p50 p99 errors "peak RSS"
for threads in 1 2; do
  port=$(free_port)
  "$BIN" serve --port "$port" --store "$STORE" --cache "$work/cache-$threads" --threads "$threads" 2>"$work/serve-$threads.log" &
  server=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
  # Warm both paths (the routing graph loads on first use), then measure.
  curl -sf "http://127.0.0.1:$port/search?q=cafe" >/dev/null
  curl -sf "http://127.0.0.1:$port/route/v1/driving/$west,$south;$east,$north" >/dev/null || true
  for kind in search route; do
    read -r name r p50 p99 bad < <(measure "$kind-$threads" "$port" "$kind")
    rps[$kind-$threads]=$r
    printf "%-8s %-8s %10s %9s %9s %7s %12s\n" "$threads" "/$kind" "$r" "$p50" "$p99" "$bad" \
      "$(awk '/VmHWM/ {print $2 " KB"}' "/proc/$server/status")"
  done
  rss[$threads]=$(awk '/VmHWM/ {print $2}' "/proc/$server/status")
  if [ "$threads" = 2 ]; then
    # Slow clients: HALF_SENT connections from this address, each half a request, held open.
    python3 - "$port" "$HALF_SENT" <<'PY'
import socket, sys, time, resource
port, count = int(sys.argv[1]), int(sys.argv[2])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
held = []
for _ in range(count):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
    held.append(s)
time.sleep(0.5)
times = []
for _ in range(20):
    start = time.perf_counter()
    c = socket.create_connection(("127.0.0.1", port), timeout=10)
    c.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    data = b""
    while True:
        chunk = c.recv(4096)
        if not chunk: break
        data += chunk
    c.close()
    times.append((time.perf_counter() - start) * 1000)
    assert data.startswith(b"HTTP/1.1 200"), data[:40]
times.sort()
print("slow clients: %d half-sent requests held open; /health p50 %.1f ms, max %.1f ms over 20 requests"
      % (len(held), times[len(times) // 2], times[-1]))
PY
  fi
  kill "$server"; wait "$server" 2>/dev/null || true
done
awk -v s1="${rps[search-1]}" -v s2="${rps[search-2]}" -v r1="${rps[route-1]}" -v r2="${rps[route-2]}" \
  -v m1="${rss[1]}" -v m2="${rss[2]}" 'BEGIN {
  printf "ratios --threads 2 / --threads 1: /search %.2fx, /route %.2fx requests/s; peak RSS %.2fx\n", s2 / s1, r2 / r1, m2 / m1 }'
