#!/bin/sh
# The last part of `make demo`: starts `openmaps serve` on a free port for a moment, opens every
# link of the file through the web app's /open and asks /api/answer what each means (what the
# page shows), screenshots each on MapLibre GL JS into demo/web.html (scripts/demo-web.py), then
# stops it and tells the one command that serves the app, with the URLs to open.
#   BIN=.build/release/openmaps sh scripts/demo-serve.sh Examples/seed-links.txt
set -eu
BIN=${BIN:-.build/release/openmaps}
links=${1:-Examples/seed-links.txt}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
log=$(mktemp)
"$BIN" serve --port "$port" 2>"$log" &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$log"' EXIT
i=0
until curl -sf "http://127.0.0.1:$port/health" >/dev/null; do
  i=$((i + 1))
  [ $i -lt 100 ] || { cat "$log" >&2; exit 1; }
  sleep 0.1
done
encode() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }
echo "== the web app on every link of $links"
opened=0
grep -v '^#' "$links" | grep -v '^$' | while read -r link; do
  encoded=$(encode "$link")
  page=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/open?url=$encoded")
  asks=$(curl -s "http://127.0.0.1:$port/api/answer?url=$encoded" | python3 -c '
import json, sys
answer = json.load(sys.stdin)
found = len(answer.get("places", [])) + len([e for e in answer.get("routeEnds", []) if e.get("place")])
route = answer.get("route")
transit = answer.get("transit")
parts = [answer.get("asks", answer.get("error")), f"{found} placed"]
if route: parts.append("route " + route["distanceText"])
if transit: parts.append("transit: " + transit["summary"])
print(" | ".join(parts))')
  echo "page $page: $asks"
done
echo
echo "== the web app on MapLibre GL JS, every link of $links (headless Chromium, WebGL in software)"
/usr/bin/python3 scripts/demo-web.py "http://127.0.0.1:$port" "$links" demo
kill $server
wait $server 2>/dev/null || true
trap - EXIT
rm -f "$log"
first=$(grep -v '^#' "$links" | grep -v '^$' | head -n 1)
echo
echo "Open the maps app in a browser: run"
echo "    $BIN serve"
echo "and open http://127.0.0.1:8080/ (any Google Maps path works too, e.g."
echo "http://127.0.0.1:8080/maps/@60.1699,24.9384,15z, and any link through"
echo "http://127.0.0.1:8080/open?url=$(encode "$first"))."
