#!/usr/bin/env python3
"""Valhalla isochrones in-process through the pyvalhalla that ../shared/bench installs: from the
first COUNT origins of an O-D set, contours MINUTES (comma-separated), polygons; the median time
of RUNS requests an origin, as one line, and the GeoJSON (one FeatureCollection an origin) into
OUT. The peer's side of scripts/bench-isochrone.sh.

    peer-valhalla-isochrone.py CONFIG.json OD.json PROFILE COUNT MINUTES RUNS OUT.json
"""
import json
import statistics
import sys
import time

from valhalla import Actor

COSTING = {"car": "auto", "foot": "pedestrian", "bicycle": "bicycle"}


def main():
    config, od_path, profile, count, minutes, runs, out = sys.argv[1:8]
    cfg = json.load(open(config))
    cfg["mjolnir"]["tile_dir"] = ""
    for section in [cfg] + [v for v in cfg.values() if isinstance(v, dict)]:
        if isinstance(section.get("logging"), dict):
            section["logging"]["type"] = ""
    actor = Actor(cfg)
    origins = [p["origin"] for p in json.load(open(od_path))["pairs"]][: int(count)]
    contours = [{"time": float(m)} for m in minutes.split(",")]
    times, collections = [], []
    for lon, lat in origins:
        request = json.dumps({"locations": [{"lon": lon, "lat": lat}], "costing": COSTING[profile],
                              "contours": contours, "polygons": True})
        answer = None
        for _ in range(int(runs)):
            start = time.perf_counter()
            try:
                answer = json.loads(actor.isochrone(request))
            except Exception:
                answer = {"type": "FeatureCollection", "features": []}
            times.append((time.perf_counter() - start) * 1000)
        collections.append(answer)
    json.dump(collections, open(out, "w"))
    print(f"  valhalla isochrone {profile:9s} {statistics.median(times):.2f} ms")


if __name__ == "__main__":
    main()
