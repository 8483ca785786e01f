#!/usr/bin/env python3
"""Whether our OSRM documents have the fields OSRM's have: the same questions (a route with
steps and every annotation, a table, a nearest, a trip, a match) asked of OSRM through its
Python bindings and of `openmaps serve`, each answer reduced to its paths (`.routes[].legs[]
.steps[].maneuver.type`) and their kinds (text, number, list, …), and the paths only one has,
or of other kinds, printed for each service. OpenMaps' own additions (a step's sentence, the
`ways` annotation) show under "only ours".

    peer-osrm-shapes.py DATA.osrm http://127.0.0.1:8080 [LON,LAT;LON,LAT;LON,LAT]
"""
import json
import sys
import urllib.request

import osrm
from osrm import osrm_ext

from osrm_objects import plain


def shape(value, path="", out=None):
    """Each path of a document and the kind of value there."""
    out = {} if out is None else out
    if isinstance(value, dict):
        for key, item in value.items():
            shape(item, f"{path}.{key}", out)
    elif isinstance(value, list):
        out[path] = "list"
        for item in value[:3]:
            shape(item, f"{path}[]", out)
    elif isinstance(value, bool) or value is None:
        out[path] = type(value).__name__
    else:
        out[path] = "number" if isinstance(value, (int, float)) else type(value).__name__
    return out


def main():
    data, server = sys.argv[1], sys.argv[2].rstrip("/")
    text = sys.argv[3] if len(sys.argv) > 3 else "7.4246,43.7384;7.4203,43.7311;7.4280,43.7445"
    points = [tuple(float(v) for v in pair.split(",")) for pair in text.split(";")]
    engine = osrm.OSRM(algorithm="CH", storage_config=data, use_shared_memory=False)

    def ours(path):
        with urllib.request.urlopen(server + path) as answer:
            return json.load(answer)

    joined = ";".join(f"{lon},{lat}" for lon, lat in points)
    pair = ";".join(f"{lon},{lat}" for lon, lat in points[:2])
    # A trace along OSRM's route between the first two points: five of its positions, a fix
    # every 10 s.
    line = plain(engine.Route(osrm.RouteParameters(
        coordinates=points[:2], overview="full", geometries="geojson")))["routes"][0]["geometry"]["coordinates"]
    trace = [tuple(line[round(index * (len(line) - 1) / 4)]) for index in range(5)]
    trace_text = ";".join(f"{lon},{lat}" for lon, lat in trace)
    cases = [
        ("route", engine.Route(osrm.RouteParameters(
            coordinates=points[:2], steps=True, annotations=[osrm_ext.RouteAnnotationsType("all")])),
         f"/route/v1/driving/{pair}?steps=true&annotations=true"),
        ("table", engine.Table(osrm.TableParameters(coordinates=points)), f"/table/v1/driving/{joined}"),
        ("nearest", engine.Nearest(osrm.NearestParameters(coordinates=points[:1])),
         f"/nearest/v1/driving/{points[0][0]},{points[0][1]}"),
        ("trip", engine.Trip(osrm.TripParameters(coordinates=points)), f"/trip/v1/driving/{joined}"),
        ("match", engine.Match(osrm.MatchParameters(coordinates=trace, timestamps=[0, 10, 20, 30, 40])),
         f"/match/v1/driving/{trace_text}?timestamps=0;10;20;30;40"),
    ]
    for name, theirs, path in cases:
        a, b = shape(plain(theirs)), shape(ours(path))
        print(f"{name}: only OSRM's {sorted(set(a) - set(b))}; only ours {sorted(set(b) - set(a))}; "
              f"of other kinds {sorted(k for k in set(a) & set(b) if a[k] != b[k])}")


if __name__ == "__main__":
    main()
