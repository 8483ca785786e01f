#!/usr/bin/env python3
"""OSRM CH route queries with steps=true (turn-by-turn steps and their geometry), in-process
through the osrm-bindings that ../shared/bench installs, over an O-D set: the median of RUNS
passes per pair, then p50/p99 over the pairs, as one line. The peer's side of the steps
benchmark in scripts/bench-route.sh.

    peer-osrm-steps.py DATA.osrm OD.json PROFILE [RUNS]
"""
import json
import statistics
import sys
import time

import osrm


def main():
    data, od_path, profile = sys.argv[1], sys.argv[2], sys.argv[3]
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    pairs = json.load(open(od_path))["pairs"]
    engine = osrm.OSRM(algorithm="CH", storage_config=data, use_shared_memory=False)
    params = [osrm.RouteParameters(coordinates=[tuple(p["origin"]), tuple(p["destination"])], steps=True,
                                   overview="false", generate_hints=False) for p in pairs]
    for p in params[:50]:
        try:
            engine.Route(p)
        except Exception:
            pass
    latencies = [[] for _ in params]
    steps = 0
    for run in range(runs):
        for index, p in enumerate(params):
            start = time.perf_counter_ns()
            try:
                answer = engine.Route(p)
                if run == 0:
                    steps += len(answer["routes"][0]["legs"][0]["steps"])
            except Exception:
                pass
            latencies[index].append((time.perf_counter_ns() - start) / 1e6)
    medians = sorted(statistics.median(l) for l in latencies)
    p50 = medians[len(medians) // 2]
    p99 = medians[min(len(medians) - 1, int(len(medians) * 0.99))]
    print(f"  osrm ch steps  {profile:8s} p50 {p50:.3f} ms  p99 {p99:.3f} ms  ({steps} steps)")


if __name__ == "__main__":
    main()
