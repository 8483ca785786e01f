#!/usr/bin/env python3
"""Sparse traces matched by OSRM and by `openmaps serve`, with OSRM's `waypoints`: for the pairs
of an O-D set, OSRM's route between the two points, FIXES positions evenly spaced along its line
(about a fix a minute on a city's car routes), timed by the route's duration, matched by both
with the first, a middle and the last fix as waypoints. Prints how many answers agree: both
refuse (`NoMatch`), or both match with as many legs and every tracepoint's `waypoint_index` the
same (null for a fix passed through, absent for one not placed); and the disagreements.

    peer-osrm-sparse-match.py DATA.osrm OD.json http://127.0.0.1:8080 [PAIRS] [FIXES]
"""
import json
import sys
import urllib.error
import urllib.request

import osrm

from osrm_objects import plain


def outcome(answer):
    """(code, legs per matching, each tracepoint's waypoint index or 'x' where not placed)."""
    if "matchings" not in answer:
        return (answer.get("code", "?"), None, None)
    legs = [len(matching["legs"]) for matching in answer["matchings"]]
    indices = ["x" if point is None else (None if point["waypoint_index"] is None else int(point["waypoint_index"]))
               for point in answer["tracepoints"]]
    return ("Ok", legs, indices)


def main():
    data, od, server = sys.argv[1:4]
    limit = int(sys.argv[4]) if len(sys.argv) > 4 else 40
    count = int(sys.argv[5]) if len(sys.argv) > 5 else 8
    engine = osrm.OSRM(algorithm="CH", storage_config=data, use_shared_memory=False)
    agree = total = 0
    for pair in json.load(open(od))["pairs"][:limit]:
        try:
            route = plain(engine.Route(osrm.RouteParameters(
                coordinates=[tuple(pair["origin"]), tuple(pair["destination"])], overview="full",
                geometries="geojson")))["routes"][0]
        except Exception:
            continue
        line = route["geometry"]["coordinates"]
        if len(line) < count:
            continue
        trace = [tuple(line[round(i * (len(line) - 1) / (count - 1))]) for i in range(count)]
        times = [round(i * route["duration"] / (count - 1)) for i in range(count)]
        stops = [0, count // 2, count - 1]
        try:
            theirs = plain(engine.Match(osrm.MatchParameters(coordinates=trace, timestamps=times, waypoints=stops)))
        except Exception as error:
            theirs = {"code": str(error).split(" ")[0]}
        url = (f"{server}/match/v1/driving/" + ";".join(f"{lon},{lat}" for lon, lat in trace)
               + "?timestamps=" + ";".join(map(str, times)) + "&waypoints=" + ";".join(map(str, stops)))
        try:
            with urllib.request.urlopen(url) as answer:
                ours = json.load(answer)
        except urllib.error.HTTPError as error:
            ours = json.load(error)
        total += 1
        a, b = outcome(theirs), outcome(ours)
        if a == b:
            agree += 1
        else:
            print(f"  pair {pair.get('id', total)}: OSRM {a}, ours {b}")
    print(f"sparse match: {agree} of {total} traces answered alike ({count} fixes, waypoints first, middle, last)")


if __name__ == "__main__":
    main()
