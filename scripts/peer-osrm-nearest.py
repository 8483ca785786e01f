#!/usr/bin/env python3
"""OSRM CH's nearest road (`Nearest`, number 1), in-process through the osrm-bindings that
../shared/bench installs: every origin and destination of an O-D set, the median of RUNS calls a
point, then p50 and p99 over the points, as one line; given our JSON lines (openmaps-bench
nearest), how many points both snap to within a metre of each other. The peer's side of the
nearest benchmark in scripts/bench-route.sh.

    peer-osrm-nearest.py DATA.osrm OD.json PROFILE RUNS [OURS.jsonl]
"""
import json
import math
import statistics
import sys
import time

import osrm


def percentile(sorted_values, p):
    """The benchlib percentile: linear between the closest ranks."""
    if not sorted_values:
        return 0.0
    rank = (len(sorted_values) - 1) * p / 100
    low, high = math.floor(rank), math.ceil(rank)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (rank - low)


def metres(a, b):
    """Great-circle distance between two [lon, lat] points, metres."""
    (lon1, lat1), (lon2, lat2) = a, b
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(h))


def main():
    if len(sys.argv) < 5 or not sys.argv[4].isdigit():
        sys.exit("usage: " + __doc__.strip().splitlines()[-1].strip())
    data, od_path, profile, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    pairs = json.load(open(od_path))["pairs"]
    points = [tuple(p[end]) for p in pairs for end in ("origin", "destination")]
    engine = osrm.OSRM(algorithm="CH", storage_config=data, use_shared_memory=False)
    latencies, locations = [], []
    for point in points:
        params = osrm.NearestParameters(coordinates=[point], generate_hints=False)
        params.number_of_results = 1
        times = []
        for _ in range(max(1, runs)):
            start = time.perf_counter()
            answer = engine.Nearest(params)
            times.append((time.perf_counter() - start) * 1e6)
        latencies.append(statistics.median(times))
        waypoints = answer["waypoints"] if "waypoints" in answer else []
        locations.append(list(waypoints[0]["location"]) if len(waypoints) else None)
    latencies.sort()
    line = (f"  osrm nearest     {profile:9s} p50 {percentile(latencies, 50):.1f} µs, p99 {percentile(latencies, 99):.1f} µs,"
            f" max {latencies[-1]:.1f} µs")
    if len(sys.argv) > 5:
        ours = [json.loads(row) for row in open(sys.argv[5]) if row.strip()]
        both = [(a, b.get("location")) for a, b in zip(locations, ours) if a and b.get("location")]
        close = sum(1 for a, b in both if metres(a, b) <= 1)
        line += f"; {close} of {len(both)} points snap within a metre of ours ({100 * close / max(1, len(both)):.1f} %)"
    print(line)


if __name__ == "__main__":
    main()
