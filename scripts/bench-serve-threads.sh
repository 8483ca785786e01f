#!/usr/bin/env bash
# `openmaps serve` on one core and on two, in one run: /search, /route (the line) and /route with
# steps and alternatives at random (wrk on loopback, one thread, CONNECTIONS connections,
# SECONDS_EACH seconds each) against a server with --threads 1, then one with --threads 2; requests/s, p50, p99, errors and the server's peak RSS
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
# 200 points on the first street region's drivable streets (the middle of a way each), so that
# every route has a road at both ends; and the region's box.
python3 - "$STORE" "$work" <<'PY'
import json, random, sqlite3, struct, sys
store, work = sys.argv[1], sys.argv[2]
db = sqlite3.connect(store)
source, = db.execute("select id from source where kind = 'osm' order by (name = 'Helsinki') desc, id limit 1").fetchone()
drivable = {"primary", "secondary", "tertiary", "residential", "unclassified"}
points = []
for blob, tags in db.execute("select points, tags from road_way where source = ?", (source,)):
    if json.loads(tags).get("highway") not in drivable: continue
    lat, lon = struct.unpack_from("<ii", blob, (len(blob) // 8 // 2) * 8)
    points.append((lat / 1e7, lon / 1e7))
random.seed(7)
with open(work + "/candidates.txt", "w") as f:
    f.writelines("%.6f %.6f\n" % p for p in random.sample(points, min(400, len(points))))
PY
# Of those, the points routed to and from a well-connected one (a point on a street cut off
# from the rest, or on a one-way street out of the extract, is not a route a client would ask).
keep_routable() {  # port
  python3 - "$1" "$work" <<'PY'
import sys, urllib.request
port, work = sys.argv[1], sys.argv[2]
points = [tuple(map(float, line.split())) for line in open(work + "/candidates.txt")]
def ok(a, b):
    url = "http://127.0.0.1:%s/route/v1/driving/%.6f,%.6f;%.6f,%.6f?overview=false" % (port, a[1], a[0], b[1], b[0])
    try:
        return urllib.request.urlopen(url).status == 200
    except Exception:
        return False
hub = max(points[:10], key=lambda h: sum(ok(h, p) and ok(p, h) for p in points[10:40]))
kept = [p for p in points if ok(hub, p) and ok(p, hub)][:200]
with open(work + "/points.lua", "w") as f:
    f.write("return {" + ",".join("{%.6f,%.6f}" % p for p in kept) + "}\n")
print("routes between %d points on streets, each reached from and reaching one well-connected point" % len(kept))
PY
}
cat > "$work/random.lua" <<LUA
-- Searches and routes at random, the same sequence for every run: words, and points on streets.
local points = dofile("$work/points.lua")
local words = {"cafe", "Esplanadi", "Kamppi", "museum", "restaurant", "Stockmann", "pharmacy", "Senate Square",
  "hotel", "Ateneum", "bank", "Kaisaniemi", "bar", "Aleksanterinkatu", "school", "park"}
local kind = os.getenv("KIND")
math.randomseed(7)
request = function()
  if kind == "search" then
    return wrk.format("GET", "/search?q=" .. words[math.random(#words)]:gsub(" ", "%%20") .. "&limit=10")
  end
  local a, b = points[math.random(#points)], points[math.random(#points)]
  -- "route": the line only; "steps": as an app asks, with turn-by-turn steps and alternatives.
  local options = kind == "steps" and "overview=full&steps=true&alternatives=true&hl=es" or "overview=full"
  return wrk.format("GET", string.format("/route/v1/driving/%.6f,%.6f;%.6f,%.6f?%s", a[2], a[1], b[2], b[1], options))
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
  [ -f "$work/points.lua" ] || keep_routable "$port"
  for kind in search route steps; do
    read -r name r p50 p99 bad < <(measure "$kind-$threads" "$port" "$kind")
    rps[$kind-$threads]=$r
    printf "%-8s %-8s %10s %9s %9s %7s %12s\n" "$threads" "/$kind" "$r" "$p50" "$p99" "$bad" \
      "$(awk '/VmHWM/ {print $2 " KB"}' "/proc/$server/status")"
  done
  rss[$threads]=$(awk '/VmHWM/ {print $2}' "/proc/$server/status")
  if [ "$threads" = 2 ]; then
    # Slow clients: HALF_SENT connections from this address, each half a request, held open.
    python3 - "$port" "$HALF_SENT" <<'PY' || echo "slow clients: /health did not answer within 10 s while $HALF_SENT half-sent requests were held open"
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
    c.settimeout(10)
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
  -v t1="${rps[steps-1]}" -v t2="${rps[steps-2]}" -v m1="${rss[1]}" -v m2="${rss[2]}" 'BEGIN {
  printf "ratios --threads 2 / --threads 1: /search %.2fx, /route %.2fx, /route with steps %.2fx requests/s; peak RSS %.2fx\n",
    s2 / s1, r2 / r1, t2 / t1, m2 / m1 }'
