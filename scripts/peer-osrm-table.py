#!/usr/bin/env python3
"""OSRM CH tables, in-process through the osrm-bindings that ../shared/bench installs: the first
SIZE origins of an O-D set to themselves, the median of RUNS computations, as one line; the
durations as JSON into OUT (rows of sources, null where no route), and, given our table's JSON,
how many cells agree within 10 %. The peer's side of the table benchmark in scripts/bench-route.sh.

    peer-osrm-table.py DATA.osrm OD.json PROFILE SIZE RUNS OUT.json [OURS.json]
"""
import json
import statistics
import sys
import time

import osrm


def main():
    data, od_path, profile = sys.argv[1], sys.argv[2], sys.argv[3]
    size, runs, out = int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
    points = [tuple(p["origin"]) for p in json.load(open(od_path))["pairs"]][:size]
    engine = osrm.OSRM(algorithm="CH", storage_config=data, use_shared_memory=False)
    params = osrm.TableParameters(coordinates=points, generate_hints=False)
    answer = engine.Table(params)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        answer = engine.Table(params)
        times.append((time.perf_counter() - start) * 1000)
    durations = [[None if v is None else round(v, 1) for v in row] for row in answer["durations"]]
    json.dump({"durations": durations}, open(out, "w"))
    line = f"  osrm table     {profile:9s} {statistics.median(times):.1f} ms, {sum(v is not None for r in durations for v in r)} of {len(points) ** 2} cells"
    if len(sys.argv) > 7:
        ours = json.load(open(sys.argv[7]))["durations"]
        both = [(a, b) for ra, rb in zip(durations, ours) for a, b in zip(ra, rb) if a is not None and b is not None]
        close = sum(1 for a, b in both if abs(a - b) <= max(0.1 * a, 1))
        line += f"; {close} of {len(both)} cells both fill within 10 % of each other ({100 * close / max(1, len(both)):.1f} %)"
    print(line)


if __name__ == "__main__":
    main()
