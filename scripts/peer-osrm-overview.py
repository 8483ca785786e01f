#!/usr/bin/env python3
"""How closely our routes' simplified line (`overview=simplified`, OSRM's default) follows
OSRM's, on the pairs of an O-D set where both find routes within 1 % of each other's duration
and whose full lines have as many positions: the lines the same position for position (within
2e-5 degree: OSRM keeps positions to 1e-6 degree before writing them to 1e-5, so a position
may round to the next 1e-5 of ours), and over all of them the positions each keeps and the
full lines' positions. Prints one line.

    peer-osrm-overview.py DATA.osrm OD.json MODE STORE OPENMAPS [PAIRS]
"""
import json
import subprocess
import sys

import osrm


def decode(text, precision=5):
    """Google's encoded polyline as [(lat, lon)]."""
    points, index, lat, lon = [], 0, 0, 0
    while index < len(text):
        for axis in (0, 1):
            shift = result = 0
            while True:
                byte = ord(text[index]) - 63
                index += 1
                result |= (byte & 0x1F) << shift
                shift += 5
                if byte < 0x20:
                    break
            delta = ~(result >> 1) if result & 1 else result >> 1
            if axis == 0:
                lat += delta
            else:
                lon += delta
        points.append((lat / 10**precision, lon / 10**precision))
    return points


def main():
    data, od, mode, store, openmaps = sys.argv[1:6]
    limit = int(sys.argv[6]) if len(sys.argv) > 6 else 60
    engine = osrm.OSRM(algorithm="CH", storage_config=data, use_shared_memory=False)
    routes = same = kept_theirs = kept_ours = full_positions = 0
    for pair in json.load(open(od))["pairs"][:limit]:
        origin, destination = pair["origin"], pair["destination"]
        answers = {}
        for overview in ("simplified", "full"):
            try:
                answers[overview] = engine.Route(osrm.RouteParameters(
                    coordinates=[tuple(origin), tuple(destination)], overview=overview))["routes"][0]
            except Exception:
                break
        if len(answers) < 2:
            continue
        ours = {}
        for overview in ("simplified", "full"):
            asked = subprocess.run(
                [openmaps, "route", f"{origin[1]},{origin[0]}", f"{destination[1]},{destination[0]}", "--mode", mode,
                 "--overview", overview, "--store", store], capture_output=True, text=True)
            if asked.returncode:
                break
            ours[overview] = json.loads(asked.stdout)["routes"][0]
        if len(ours) < 2:
            continue
        theirs = answers["simplified"]
        if abs(ours["full"]["duration"] - theirs["duration"]) > 0.01 * theirs["duration"]:
            continue
        if len(decode(ours["full"]["geometry"])) != len(decode(answers["full"]["geometry"])):
            continue
        routes += 1
        a, b = decode(theirs["geometry"]), decode(ours["simplified"]["geometry"])
        same += len(a) == len(b) and all(
            abs(p[0] - q[0]) <= 2e-5 and abs(p[1] - q[1]) <= 2e-5 for p, q in zip(a, b))
        kept_theirs += len(a)
        kept_ours += len(b)
        full_positions += len(decode(ours["full"]["geometry"]))
    print(f"{mode}: {routes} routes: simplified lines the same on {same}; positions kept, OSRM / ours: "
          f"{kept_theirs} / {kept_ours} of {full_positions}")


if __name__ == "__main__":
    main()
