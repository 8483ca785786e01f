#!/usr/bin/env python3
"""OSRM CH map matching, in-process through the osrm-bindings that ../shared/bench installs, on
the traces openmaps-bench match wrote (the same fixes, timestamps and radiuses): the median of
RUNS matchings a trace, the median over traces, as one line; and how much of the two matchers'
lines agree: the share of OSRM's matched length within 10 m of ours, and of ours within 10 m of
OSRM's (the lines sampled every 2 m). The peer's side of the match benchmark in
scripts/bench-route.sh.

    peer-osrm-match.py DATA.osrm TRACES.json PROFILE RUNS
"""
import json
import math
import statistics
import sys
import time

import osrm

CLOSE = 10.0  # metres
STEP = 2.0  # metres between samples along a line


def plane(lat0):
    k = math.cos(math.radians(lat0))
    return lambda p: (p[0] * 111320.0 * k, p[1] * 111132.0)


def samples(lines, project):
    """Points every STEP metres along each line, in the plane, with the metres each stands for."""
    out = []
    for line in lines:
        pts = [project(p) for p in line]
        for (ax, ay), (bx, by) in zip(pts, pts[1:]):
            length = math.hypot(bx - ax, by - ay)
            n = max(1, int(length / STEP))
            for i in range(n):
                t = (i + 0.5) / n
                out.append((ax + (bx - ax) * t, ay + (by - ay) * t, length / n))
    return out


def near_share(a, b):
    """The share of a's length within CLOSE metres of b's line (b's samples in a grid)."""
    grid = {}
    for x, y, _ in b:
        grid.setdefault((int(x // CLOSE), int(y // CLOSE)), []).append((x, y))
    total = near = 0.0
    for x, y, w in a:
        total += w
        cx, cy = int(x // CLOSE), int(y // CLOSE)
        if any(math.hypot(x - px, y - py) <= CLOSE for i in (-1, 0, 1) for j in (-1, 0, 1)
               for px, py in grid.get((cx + i, cy + j), ())):
            near += w
    return near / total if total else 1.0


def main():
    data, traces_path, profile, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    document = json.load(open(traces_path))
    engine = osrm.OSRM(algorithm="CH", storage_config=data, use_shared_memory=False,
                       max_locations_map_matching=-1)
    medians, theirs_near, ours_near, theirs_total, ours_total, matched = [], 0.0, 0.0, 0.0, 0.0, 0
    for trace in document["traces"]:
        coordinates = [tuple(c) for c in trace["coordinates"]]
        params = osrm.MatchParameters(
            coordinates=coordinates, timestamps=trace["timestamps"], radiuses=[trace["radius"]] * len(coordinates),
            geometries="geojson", overview="full", generate_hints=False)
        try:
            answer = engine.Match(params)
        except RuntimeError as error:
            print(f"  osrm match     {profile:9s} refused a trace: {error}")
            continue
        taken = []
        for _ in range(runs):
            start = time.perf_counter()
            answer = engine.Match(params)
            taken.append((time.perf_counter() - start) * 1000)
        medians.append(statistics.median(taken))
        matched += sum(1 for t in answer["tracepoints"] if t is not None)
        lines = [m["geometry"]["coordinates"] for m in answer["matchings"]]
        project = plane(coordinates[0][1])
        theirs, ours = samples(lines, project), samples(trace["matched"], project)
        their_length, our_length = sum(w for *_, w in theirs), sum(w for *_, w in ours)
        theirs_near += near_share(theirs, ours) * their_length
        ours_near += near_share(ours, theirs) * our_length
        theirs_total += their_length
        ours_total += our_length
    ours_ms = statistics.median([t["matched_ms"] for t in document["traces"]])
    theirs_ms = statistics.median(medians) if medians else float("nan")
    print(f"  osrm match     {profile:9s} {theirs_ms:.1f} ms a trace (median of {len(medians)} traces), "
          f"{matched} fixes placed; ours/OSRM time {ours_ms / theirs_ms:.2f}; "
          f"OSRM's length within {CLOSE:.0f} m of ours {100 * theirs_near / max(theirs_total, 1):.1f} %, "
          f"ours within {CLOSE:.0f} m of OSRM's {100 * ours_near / max(ours_total, 1):.1f} %")


if __name__ == "__main__":
    main()
