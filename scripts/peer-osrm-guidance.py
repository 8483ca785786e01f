#!/usr/bin/env python3
"""How closely our turn-by-turn steps follow OSRM's, on the pairs of an O-D set where both
find the same route (durations within 3 %): each route's manoeuvres as (type, modifier) —
a roundabout as its exit number, OSRM's 'roundabout turn' and 'rotary' as roundabouts, its
'exit roundabout' steps and the depart and arrive steps left out — compared by edit
distance. Prints one line: routes compared, OSRM's and our manoeuvres, the edits per OSRM
manoeuvre, the routes whose roundabout exits agree, and the routes whose roundabouts agree in
OSRM's full terms (type, modifier and exit of each, in order); then a second line on the steps'
intersections: the nodes both list (by position, to 1e-5°), those where both see as many roads,
and of those the ones whose entry flags, and whose in and out indices, agree.

    peer-osrm-guidance.py DATA.osrm OD.json MODE STORE OPENMAPS [PAIRS]
"""
import json
import subprocess
import sys

import osrm


def manoeuvres(steps):
    said = []
    for step in steps:
        kind = step["maneuver"]["type"]
        modifier = step["maneuver"]["modifier"] if "modifier" in step["maneuver"] else None
        if kind in ("depart", "arrive", "exit roundabout", "exit rotary"):
            continue
        if kind in ("roundabout", "roundabout turn", "rotary"):
            said.append(("roundabout", int(step["maneuver"]["exit"]) if "exit" in step["maneuver"] else None))
        else:
            said.append((kind, modifier))
    return said


def rings(steps):
    """Each roundabout's (type, modifier, exit), in order."""
    return [(s["maneuver"]["type"], s["maneuver"]["modifier"] if "modifier" in s["maneuver"] else None,
             int(s["maneuver"]["exit"]) if "exit" in s["maneuver"] else None)
            for s in steps if s["maneuver"]["type"] in ("roundabout", "roundabout turn", "rotary")]


def intersections(steps):
    """Each listed node's (bearings count, entry flags, in, out), keyed by its rounded position."""
    listed = {}
    for step in steps:
        for x in step["intersections"]:
            key = (round(x["location"][0], 5), round(x["location"][1], 5))
            entry = [bool(e) for e in x["entry"]]
            listed[key] = (len(entry), entry, x["in"] if "in" in x else None, x["out"] if "out" in x else None)
    return listed


def edits(a, b):
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        diagonal, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            diagonal, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, diagonal + (x != y))
    return row[len(b)]


def main():
    data, od_path, mode, store, openmaps = sys.argv[1:6]
    limit = int(sys.argv[6]) if len(sys.argv) > 6 else 80
    engine = osrm.OSRM(algorithm="CH", storage_config=data, use_shared_memory=False)
    routes = theirs_total = ours_total = changes = roundabouts = agreeing = fully = 0
    nodes = same_roads = same_entry = same_ways = 0
    for pair in json.load(open(od_path))["pairs"][:limit]:
        origin, destination = pair["origin"], pair["destination"]
        try:
            theirs = engine.Route(osrm.RouteParameters(
                coordinates=[tuple(origin), tuple(destination)], steps=True, overview="false"))["routes"][0]
        except Exception:
            continue
        run = subprocess.run(
            [openmaps, "route", f"{origin[1]},{origin[0]}", f"{destination[1]},{destination[0]}", "--mode", mode,
             "--steps", "--store", store], capture_output=True, text=True)
        if run.returncode != 0:
            continue
        ours = json.loads(run.stdout)["routes"][0]
        if abs(ours["duration"] - theirs["duration"]) > 0.03 * theirs["duration"]:
            continue
        a, b = manoeuvres(theirs["legs"][0]["steps"]), manoeuvres(ours["legs"][0]["steps"])
        routes += 1
        theirs_total += len(a)
        ours_total += len(b)
        changes += edits(a, b)
        listed_a = intersections(theirs["legs"][0]["steps"])
        for key, (count, entry, way_in, way_out) in intersections(ours["legs"][0]["steps"]).items():
            if key not in listed_a:
                continue
            nodes += 1
            if listed_a[key][0] == count:
                same_roads += 1
                same_entry += listed_a[key][1] == entry
                same_ways += (listed_a[key][2], listed_a[key][3]) == (way_in, way_out)
        exits_a = [x for x in a if x[0] == "roundabout"]
        exits_b = [x for x in b if x[0] == "roundabout"]
        if exits_a or exits_b:
            roundabouts += 1
            agreeing += exits_a == exits_b
            fully += rings(theirs["legs"][0]["steps"]) == rings(ours["legs"][0]["steps"])
    print("  guidance %-9s %3d routes: OSRM %4d manoeuvres, ours %4d; %.2f edits per OSRM manoeuvre; "
          "roundabout exits agree on %d of %d routes, type, modifier and exit on %d" % (
              mode, routes, theirs_total, ours_total, changes / max(theirs_total, 1), agreeing, roundabouts, fully))
    print("  intersections %-9s %d listed by both, %d with as many roads: entry flags agree on %d, in and out on %d" % (
        mode, nodes, same_roads, same_entry, same_ways))


if __name__ == "__main__":
    main()
