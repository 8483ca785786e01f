#!/usr/bin/env python3
"""How closely our routes through stops follow OSRM's when a client says how they are passed:
`continue_straight` (OSRM's default by profile, true, false) and `approaches=curb` at every
point; and OSRM's default against ours turning back at every stop, as all our routes did before
`continue_straight` was honoured. Each route goes through three points of an O-D set (a pair's origin and destination and
the next pair's origin); for each setting, the share of routes both find whose durations are
within 1 % and within 10 % of each other's, and how often the setting changed the route from
the one that may turn back anywhere (OSRM's and ours). Prints one line a setting.

    peer-osrm-passage.py DATA.osrm OD.json MODE STORE OPENMAPS [ROUTES]
"""
import json
import subprocess
import sys

import osrm

SETTINGS = [
    ("continue_straight=false", {"continue_straight": False}, ["--continue-straight", "false"]),
    ("default", {}, []),
    ("default against ours turning back (as before)", {}, ["--continue-straight", "false"]),
    ("continue_straight=true", {"continue_straight": True}, ["--continue-straight", "true"]),
    ("approaches=curb", {"approaches": ["curb"] * 3, "continue_straight": False},
     ["--approaches", "curb;curb;curb", "--continue-straight", "false"]),
]


def main():
    data, od, mode, store, openmaps = sys.argv[1:6]
    limit = int(sys.argv[6]) if len(sys.argv) > 6 else 50
    engine = osrm.OSRM(algorithm="CH", storage_config=data, use_shared_memory=False)
    pairs = json.load(open(od))["pairs"]
    triples = [[pairs[i]["origin"], pairs[i]["destination"], pairs[i + 1]["origin"]] for i in range(limit)]
    free = {}
    for name, theirs_options, our_options in SETTINGS:
        both = near = close = changed_theirs = changed_ours = 0
        for index, points in enumerate(triples):
            try:
                theirs = engine.Route(osrm.RouteParameters(
                    coordinates=[tuple(point) for point in points], overview="false",
                    **theirs_options))["routes"][0]["duration"]
            except Exception:
                continue
            asked = subprocess.run(
                [openmaps, "route", f"{points[0][1]},{points[0][0]}", f"{points[2][1]},{points[2][0]}",
                 "--via", f"{points[1][1]},{points[1][0]}", "--mode", mode, "--store", store] + our_options,
                capture_output=True, text=True)
            if asked.returncode:
                continue
            ours = json.loads(asked.stdout)["routes"][0]["duration"]
            both += 1
            near += abs(ours - theirs) <= 0.01 * theirs
            close += abs(ours - theirs) <= 0.10 * theirs
            if name == "continue_straight=false":
                free[index] = (theirs, ours)
            elif index in free:
                changed_theirs += abs(free[index][0] - theirs) > 0.5
                changed_ours += abs(free[index][1] - ours) > 0.5
        changes = f", changed from turning back: OSRM {changed_theirs}, ours {changed_ours}" if free else ""
        print(f"{mode} {name}: {both} routes, within 1 % {near / max(both, 1):.0%}, "
              f"within 10 % {close / max(both, 1):.0%}{changes}")


if __name__ == "__main__":
    main()
