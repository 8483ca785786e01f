#!/usr/bin/env python3
"""How closely our routes' `nodes` annotation (the OSM node at each position of a leg's line)
follows OSRM's, on the pairs of an O-D set where both find routes within 1 % of each other's
duration: the routes whose node lists are the same, those apart only by the segment of no
length OSRM writes where an end snaps onto a node (its list one node longer at that end), and
the rest (another path of about the same duration). Prints one line.

    peer-osrm-nodes.py DATA.osrm OD.json MODE STORE OPENMAPS [PAIRS]
"""
import json
import subprocess
import sys

import osrm
from osrm import osrm_ext


def main():
    data, od, mode, store, openmaps = sys.argv[1:6]
    limit = int(sys.argv[6]) if len(sys.argv) > 6 else 60
    engine = osrm.OSRM(algorithm="CH", storage_config=data, use_shared_memory=False)
    same = ends = other = 0
    for pair in json.load(open(od))["pairs"][:limit]:
        origin, destination = pair["origin"], pair["destination"]
        try:
            theirs = engine.Route(osrm.RouteParameters(
                coordinates=[tuple(origin), tuple(destination)],
                annotations=[osrm_ext.RouteAnnotationsType("nodes")], overview="false"))["routes"][0]
        except Exception:
            continue
        asked = subprocess.run(
            [openmaps, "route", f"{origin[1]},{origin[0]}", f"{destination[1]},{destination[0]}", "--mode", mode,
             "--annotations", "nodes", "--store", store], capture_output=True, text=True)
        if asked.returncode:
            continue
        ours = json.loads(asked.stdout)["routes"][0]
        if abs(ours["duration"] - theirs["duration"]) > 0.01 * theirs["duration"]:
            continue
        their_nodes = [int(node) for node in theirs["legs"][0]["annotation"]["nodes"]]
        our_nodes = ours["legs"][0]["annotation"]["nodes"]
        if our_nodes == their_nodes:
            same += 1
        elif our_nodes in (their_nodes[1:], their_nodes[:-1], their_nodes[1:-1]):
            ends += 1
        else:
            other += 1
    print(f"{mode}: {same + ends + other} routes: nodes the same on {same}, apart only at an end snapped "
          f"onto a node on {ends}, another path on {other}")


if __name__ == "__main__":
    main()
