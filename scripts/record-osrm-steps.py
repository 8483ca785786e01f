#!/usr/bin/env python3
"""Records OSRM's turn-by-turn steps on the committed central Monaco extract, once, for the
guidance tests (data/test-extracts/osrm-monaco-centre-steps.json): routes between points
drawn at random (a fixed seed) in the extract, per profile, each with OSRM's duration and
distance and every step's maneuver type, modifier, exit and location.

    record-osrm-steps.py WORK OUT.json [ROUTES]

WORK holds car/, foot/ and bicycle/ with the extract built by OSRM's own tools
(osrm-extract -p PROFILE.lua data.osm.pbf; osrm-contract data.osrm), from the osrm-bindings
wheel the bench installs (../shared/bench).
"""
import importlib.metadata
import json
import os
import random
import sys

import osrm

# Inside the extract's box (7.405,43.725 to 7.44,43.752), away from its cut edges.
WEST, SOUTH, EAST, NORTH = 7.409, 43.728, 7.436, 43.749


def step_record(step):
    """A step as [type, modifier, exit, longitude, latitude] (null where OSRM gives none)."""
    m = step["maneuver"]
    return [m["type"], m["modifier"] if "modifier" in m else None, int(m["exit"]) if "exit" in m else None,
            round(m["location"][0], 6), round(m["location"][1], 6)]


def main():
    work, out = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    answers = {"peer": "OSRM CH, osrm-bindings " + importlib.metadata.version("osrm-bindings"),
               "extract": "data/test-extracts/monaco-centre.osm.pbf", "seed": 29, "routes": {}}
    for profile in ("car", "foot", "bicycle"):
        engine = osrm.OSRM(algorithm="CH", storage_config=os.path.join(work, profile, "data.osrm"),
                           use_shared_memory=False)
        draw = random.Random(29)
        routes = []
        while len(routes) < count:
            origin = (draw.uniform(WEST, EAST), draw.uniform(SOUTH, NORTH))
            destination = (draw.uniform(WEST, EAST), draw.uniform(SOUTH, NORTH))
            try:
                route = engine.Route(osrm.RouteParameters(
                    coordinates=[origin, destination], steps=True, overview="false"))["routes"][0]
            except Exception:
                continue
            if route["distance"] < 300:
                continue
            routes.append({
                "from": [round(origin[1], 6), round(origin[0], 6)],
                "to": [round(destination[1], 6), round(destination[0], 6)],
                "duration": round(route["duration"], 1), "distance": round(route["distance"], 1),
                "steps": [step_record(s) for s in route["legs"][0]["steps"]],
            })
        answers["routes"][profile] = routes
    # One route a line, so that a new recording reads as a diff.
    compact = {"separators": (",", ":"), "ensure_ascii": False}
    with open(out, "w") as f:
        f.write("{\n" + "".join(f" {json.dumps(k)}:{json.dumps(answers[k], **compact)},\n"
                                 for k in ("peer", "extract", "seed")))
        f.write(' "routes":{\n')
        f.write(",\n".join(f"  {json.dumps(profile)}:[\n" + ",\n".join(
            "   " + json.dumps(route, **compact) for route in routes) + "]"
            for profile, routes in answers["routes"].items()))
        f.write("}}\n")


if __name__ == "__main__":
    main()
