#!/usr/bin/env bash
# Transit beside Valhalla's multimodal router, in one run: each feed of ../shared/data/gtfs
# imported (time and peak memory), then Terre Haute's roads and feed, Valhalla's answers to
# the 1,000 stop-to-stop pairs with departure times (../shared/bench/peer-transit.sh) and ours
# in-process (openmaps-bench transit), and how ours compare: answered where Valhalla answers,
# arriving no later than Valhalla (within a minute).
#   bash scripts/bench-transit.sh
set -euo pipefail
. "$(dirname "$0")/bench-env.sh"
BIN=${BIN:-$here/.build/release/openmaps}
SHARED=${SHARED:-$here/../shared}
PEERS=$SHARED/bench
RUNS=${RUNS:-3}
work=$BENCH_CACHE/openmaps-transit
mkdir -p "$work"
echo "== imports of the feeds (release build; time, peak memory, what was read)"
for feed in "$SHARED"/data/gtfs/*.zip; do
  rm -f "$work/feed.sqlite" "$work/feed.sqlite.lock"
  /usr/bin/time -f "  %e s, peak %M KB" "$BIN" import "$feed" --store "$work/feed.sqlite" 2>&1 | grep -E "timetabled|peak" | paste -sd ' '
done
roads=$SHARED/data/osm/terre-haute-roads.osm.pbf
if [ ! -f "$roads" ] || [ ! -f "$PEERS/od-terre-haute-transit.json" ]; then echo "(no Terre Haute data: no journey comparison)"; exit 0; fi
store=$work/terre-haute.sqlite
rm -f "$store" "$store.lock"
"$BIN" import "$roads" --store "$store" --region terre-haute >/dev/null 2>&1
"$BIN" import "$SHARED/data/gtfs/terre-haute-gtfs-2017.zip" --store "$store" >/dev/null
echo "== Valhalla multimodal (its own script)"
(cd "$PEERS" && RUNS=$RUNS bash peer-transit.sh 2>&1 | tail -3) || echo "  (Valhalla did not run)"
echo "== OpenMaps"
"$here/.build/release/openmaps-bench" transit --store "$store" --od "$PEERS/od-terre-haute-transit.json" --runs "$RUNS" \
  --out "$work/openmaps-transit.jsonl"
peer=$BENCH_CACHE/results/terre-haute/valhalla-transit.jsonl
[ -f "$peer" ] || peer=$PEERS/reference-results/terre-haute/valhalla-transit.jsonl
# Valhalla's wheel has no time-zone database: it reads each departure as UTC and answers with
# the timetable of 4 hours earlier (EDT). Ours on the same hours, to compare like with like.
python3 - "$PEERS/od-terre-haute-transit.json" "$work/od-minus-4h.json" <<'PY'
import json, sys
od = json.load(open(sys.argv[1]))
for pair in od["pairs"]:
    pair["depart_at"] = pair["depart_at"][:11] + "%02d" % (int(pair["depart_at"][11:13]) - 4) + pair["depart_at"][13:]
json.dump(od, open(sys.argv[2], "w"))
PY
"$here/.build/release/openmaps-bench" transit --store "$store" --od "$work/od-minus-4h.json" --runs 1 \
  --out "$work/openmaps-transit-minus-4h.jsonl" | head -1 | sed 's/^/  4 h earlier: /'
for ours in "$work/openmaps-transit.jsonl" "$work/openmaps-transit-minus-4h.jsonl"; do
python3 - "$ours" "$peer" <<'PY'
import json, statistics, sys
ours = {r["id"]: r for r in map(json.loads, open(sys.argv[1]))}
peer = {r["id"]: r for r in map(json.loads, open(sys.argv[2]))}
answered = [i for i in peer if peer[i]["status"] == "ok"]
missing = [i for i in answered if ours.get(i, {}).get("status") != "ok"]
both = [i for i in answered if i not in missing]
no_later = [i for i in both if ours[i]["duration_s"] <= peer[i]["duration_s"] + 60]
later = sorted(ours[i]["duration_s"] - peer[i]["duration_s"] for i in both if i not in no_later)
earlier = [i for i in both if ours[i]["duration_s"] < peer[i]["duration_s"] - 60]
print(f"== against Valhalla ({sys.argv[2]}), ours: {sys.argv[1]}")
print(f"  Valhalla answered {len(answered)}; OpenMaps answered {len(both)} of them ({len(missing)} missing)")
print(f"  arrival no later than Valhalla's (within 60 s): {len(no_later)} = {100 * len(no_later) / max(len(both), 1):.1f} %"
      f" (earlier by over a minute: {len(earlier)}); later: {len(later)}, by a median {statistics.median(later) / 60 if later else 0:.1f} min")
lo = sorted(r["latency_us"] for r in ours.values()); lp = sorted(r["latency_us"] for r in peer.values())
q = lambda v, p: v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))] / 1000
print(f"  latency p50 / p99: Valhalla {q(lp, 50):.2f} / {q(lp, 99):.2f} ms, OpenMaps {q(lo, 50):.2f} / {q(lo, 99):.2f} ms (ratio {q(lo, 50) / q(lp, 50):.2f})")
PY
done
echo "== Realtime: journeys on a feed delaying a third of the trips against the timetable alone, and 1,000 updates applied"
"$here/.build/release/openmaps-bench" realtime --store "$store" --od "$PEERS/od-terre-haute-transit.json" --runs "$RUNS"
