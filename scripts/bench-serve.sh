#!/usr/bin/env bash
# `openmaps serve` under load with wrk on loopback, in one run: cached tiles beside nginx
# serving the same tiles as files; vector tiles (zooms 10-14, gzip) cached and read from a
# PMTiles archive beside nginx serving the same bytes; uncached tiles (one tile a block, so each request renders
# a block of 16); static maps at random places; /search and /route at random; the server's
# RSS before and after. Every run lasts SECONDS_EACH (60 by default), with CONNECTIONS (32)
# connections for files and RENDERING (8) for what is drawn or computed per request.
#   bash scripts/bench-serve.sh
#   SECONDS_EACH=10 bash scripts/bench-serve.sh      # a quick look
set -euo pipefail
. "$(dirname "$0")/bench-env.sh"
BIN=${BIN:-$here/.build/release/openmaps}
SECONDS_EACH=${SECONDS_EACH:-60}
CONNECTIONS=${CONNECTIONS:-32}
RENDERING=${RENDERING:-8}
STORE=${STORE:-$OPENMAPS_DATA/openmaps.sqlite}
for tool in wrk nginx; do
  command -v $tool >/dev/null || [ -x /usr/sbin/$tool ] || { echo "($tool is not installed: no serving benchmark)"; exit 0; }
done
work=$BENCH_CACHE/serve
rm -rf "$work" && mkdir -p "$work/files" "$work/nginx"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
port=$(free_port)
"$BIN" serve --port "$port" --store "$STORE" --cache "$work/cache" --threads 4 2>"$work/serve.log" &
server=$!
archive_server=""
trap 'kill $server $archive_server 2>/dev/null; [ -f "$work/nginx/pid" ] && kill "$(cat "$work/nginx/pid")" 2>/dev/null; true' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.2; done
rss() { awk '/VmRSS/ {print $2 " KB"}' "/proc/$server/status"; }
echo "server RSS at start: $(rss)"

# The tile sets: every tile of the store's first street region at zooms 12-17 (cached), and one
# tile a 4x4 block at zooms 17-21 (uncached), as path lists.
python3 - "$STORE" "$work" <<'EOF'
import math, sqlite3, sys
store, work = sys.argv[1], sys.argv[2]
row = sqlite3.connect(store).execute(
    "select min_lat, min_lon, max_lat, max_lon from source where kind = 'osm' order by (name = 'Helsinki') desc, id limit 1").fetchone()
south, west, north, east = row
def tile(lat, lon, z):
    n = 2 ** z
    x = int((lon + 180) / 360 * n)
    y = int((1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)
    return x, y
def tiles(z, step=1):
    x0, y0 = tile(north, west, z)
    x1, y1 = tile(south, east, z)
    return [(z, x, y) for x in range(x0 - x0 % step, x1 + 1, step) for y in range(y0 - y0 % step, y1 + 1, step)]
cached = [t for z in range(12, 18) for t in tiles(z)]
uncached = [t for z in range(17, 22) for t in tiles(z, 4)]
with open(work + "/cached.txt", "w") as f:
    f.writelines("/tiles/normal/%d/%d/%d.png\n" % t for t in cached)
with open(work + "/uncached.txt", "w") as f:
    f.writelines("/tiles/normal/%d/%d/%d.png\n" % t for t in uncached)
with open(work + "/vector.txt", "w") as f:
    f.writelines("/tiles/vector/%d/%d/%d.pbf\n" % t for z in range(10, 15) for t in tiles(z))
with open(work + "/box.txt", "w") as f:
    f.write("%f %f %f %f\n" % (south, west, north, east))
EOF
read -r south west north east < "$work/box.txt"
echo "tiles: $(wc -l < "$work/cached.txt") cached (zooms 12-17), $(wc -l < "$work/uncached.txt") blocks uncached (17-21) over $south,$west – $north,$east"

# Warm the cache and lay the same tiles out as files for nginx.
while read -r path; do
  mkdir -p "$work/files$(dirname "$path")"
  curl -sf "http://127.0.0.1:$port$path" -o "$work/files$path"
done < "$work/cached.txt"
# The vector tiles the same way: cut once, then kept (gzip) by the server and as files.
while read -r path; do
  mkdir -p "$work/files$(dirname "$path")"
  curl -sf -H 'Accept-Encoding: gzip' "http://127.0.0.1:$port$path" -o "$work/files$path" || rm -f "$work/files$path"
done < "$work/vector.txt"
# Only the tiles with something in them (an empty one is 204 No Content).
for path in $(cat "$work/vector.txt"); do [ -s "$work/files$path" ] && echo "$path"; done > "$work/vector-full.txt"
echo "vector tiles: $(wc -l < "$work/vector-full.txt") cached (zooms 10-14, gzip)"
"$BIN" tiles --format mvt --zooms 10-14 --bbox "$west,$south,$east,$north" --out "$work/region.pmtiles" --store "$STORE" >/dev/null
archive_port=$(free_port)
"$BIN" serve --port "$archive_port" --store "$STORE" --tiles "$work/region.pmtiles" --threads 4 2>"$work/archive.log" &
archive_server=$!
nginx_port=$(free_port)
cat > "$work/nginx/nginx.conf" <<EOF
worker_processes 2;
pid $work/nginx/pid;
error_log $work/nginx/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  open_file_cache max=10000;
  client_body_temp_path $work/nginx; proxy_temp_path $work/nginx; fastcgi_temp_path $work/nginx;
  uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;
  server { listen 127.0.0.1:$nginx_port; root $work/files; etag on; add_header Cache-Control "public, max-age=3600"; }
}
EOF
/usr/sbin/nginx -c "$work/nginx/nginx.conf" -p "$work/nginx"

cat > "$work/paths.lua" <<'EOF'
-- Requests paths from the file PATHS at random.
local paths = {}
for line in io.lines(os.getenv("PATHS")) do paths[#paths + 1] = line end
request = function() return wrk.format("GET", paths[math.random(#paths)]) end
EOF
cat > "$work/gzip.lua" <<'EOF'
-- Requests paths from the file PATHS at random, accepting gzip as a browser does.
local paths = {}
for line in io.lines(os.getenv("PATHS")) do paths[#paths + 1] = line end
request = function() return wrk.format("GET", paths[math.random(#paths)], {["Accept-Encoding"] = "gzip"}) end
EOF
cat > "$work/walk.lua" <<'EOF'
-- Each thread walks its own share of the paths in PATHS, each path once.
local threads = 0
function setup(thread) thread:set("id", threads); threads = threads + 1 end
local paths = {}
for line in io.lines(os.getenv("PATHS")) do paths[#paths + 1] = line end
local n = 0
request = function()
  local index = (n * 2 + id) % #paths + 1
  n = n + 1
  return wrk.format("GET", paths[index])
end
EOF
cat > "$work/random.lua" <<EOF
-- Static maps, searches and routes at random places in the region.
local south, west, north, east = $south, $west, $north, $east
local words = {"cafe", "Esplanadi", "Kamppi", "museum", "restaurant", "Stockmann", "pharmacy", "Senate Square",
  "hotel", "Ateneum", "bank", "Kaisaniemi", "bar", "Aleksanterinkatu", "school", "park"}
local kind = os.getenv("KIND")
local function point() return south + math.random() * (north - south), west + math.random() * (east - west) end
request = function()
  if kind == "static" then
    local lat, lon = point()
    return wrk.format("GET", string.format("/staticmap?center=%.6f,%.6f&zoom=%d&size=400x300", lat, lon, math.random(14, 17)))
  elseif kind == "search" then
    return wrk.format("GET", "/search?q=" .. words[math.random(#words)]:gsub(" ", "%%20") .. "&limit=10")
  else
    local a, b = point()
    local c, d = point()
    return wrk.format("GET", string.format("/route/v1/driving/%.6f,%.6f;%.6f,%.6f?overview=full", b, a, d, c))
  end
end
EOF

# One wrk run: requests/s, p50, p99, errors.
measure() {  # name connections url script [env...]
  local name=$1 connections=$2 url=$3 script=$4
  local out="$work/$(echo "$name" | tr ' /' '__').wrk"
  shift 4
  env "$@" wrk -t2 -c"$connections" -d"${SECONDS_EACH}s" --timeout 30s --latency -s "$script" "$url" > "$out" 2>&1 || true
  awk -v name="$name" '
    /Requests\/sec/ { rps = $2 }
    /^ +50%/ { p50 = $2 } /^ +99%/ { p99 = $2 }
    /Non-2xx/ { bad = $5 } /Socket errors/ { sock = $0 }
    END { printf "%-22s %10s req/s   p50 %8s   p99 %8s   non-2xx %s%s\n", name, rps, p50, p99, bad ? bad : 0,
          sock ? "   " sock : "" }' "$out"
}
echo "wrk: 2 threads, ${SECONDS_EACH} s each, loopback; server with 4 threads; $CONNECTIONS connections for files,"
echo "$RENDERING for what is rendered or computed per request"
measure "nginx cached tiles" "$CONNECTIONS" "http://127.0.0.1:$nginx_port" "$work/paths.lua" PATHS="$work/cached.txt"
measure "openmaps cached tiles" "$CONNECTIONS" "http://127.0.0.1:$port" "$work/paths.lua" PATHS="$work/cached.txt"
echo "server RSS after cached tiles: $(rss)"
measure "nginx vector tiles" "$CONNECTIONS" "http://127.0.0.1:$nginx_port" "$work/gzip.lua" PATHS="$work/vector-full.txt"
measure "openmaps vector cached" "$CONNECTIONS" "http://127.0.0.1:$port" "$work/gzip.lua" PATHS="$work/vector-full.txt"
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$archive_port/health" >/dev/null && break; sleep 0.2; done
measure "openmaps vector PMTiles" "$CONNECTIONS" "http://127.0.0.1:$archive_port" "$work/gzip.lua" PATHS="$work/vector-full.txt"
kill $archive_server 2>/dev/null || true
before=$(wc -l < "$work/serve.log")
measure "openmaps uncached tiles" "$RENDERING" "http://127.0.0.1:$port" "$work/walk.lua" PATHS="$work/uncached.txt"
walked=$(($(wc -l < "$work/serve.log") - before))
blocks=$(wc -l < "$work/uncached.txt")
if [ "$walked" -gt "$blocks" ]; then
  echo "  (the $blocks blocks ran out: $walked requests, the later ones from the cache; give fewer SECONDS_EACH)"
else
  echo "  (each request a block of 16 tiles not rendered before: $walked requests)"
fi
measure "openmaps static maps" "$RENDERING" "http://127.0.0.1:$port" "$work/random.lua" KIND=static
measure "openmaps /search" "$RENDERING" "http://127.0.0.1:$port" "$work/random.lua" KIND=search
measure "openmaps /route" "$RENDERING" "http://127.0.0.1:$port" "$work/random.lua" KIND=route
echo "server RSS at the end: $(rss); picture cache on disk: $(du -sk "$work/cache" | cut -f1) KB"
