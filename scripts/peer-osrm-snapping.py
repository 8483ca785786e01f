#!/usr/bin/env python3
"""How our `snapping` follows OSRM's: for a point on every road no route starts on by default
(a private service road, a ferry: OSRM's `is_startpoint`) in the store, a table from it to a
destination by both, with `snapping=default` and `snapping=any`. Prints, for each setting, how
often the point met its road as far away as OSRM's (within 0.5 m) and how often the durations
are within 5 % of each other's, then each point's figures.

    peer-osrm-snapping.py DATA.osrm STORE OPENMAPS LAT,LON
"""
import json
import sqlite3
import struct
import subprocess
import sys

import osrm


def points_on_roads_routes_do_not_start_on(store):
    """The middle of the first segment of each private service road and ferry of the store's
    road ways: (way id, lat, lon)."""
    db = sqlite3.connect(store)
    rows = db.execute(
        "SELECT osm_id, nodes FROM road_way WHERE (tags LIKE '%\"access\":\"private\"%'"
        " AND tags LIKE '%\"highway\":\"service\"%') OR tags LIKE '%\"route\":\"ferry\"%' ORDER BY osm_id").fetchall()
    points = []
    for way, nodes in rows:
        ids = struct.unpack("<%dq" % (len(nodes) // 8), nodes)
        ends = [db.execute("SELECT lat, lon FROM osm_node WHERE id = ?", (node,)).fetchone() for node in ids[:2]]
        if len(ends) < 2 or None in ends:
            continue
        # The store keeps degrees in units of 1e-9.
        points.append((way, (ends[0][0] + ends[1][0]) / 2e9, (ends[0][1] + ends[1][1]) / 2e9))
    return points


def main():
    data, store, openmaps, destination = sys.argv[1:5]
    to_lat, to_lon = map(float, destination.split(","))
    engine = osrm.OSRM(algorithm="CH", storage_config=data, use_shared_memory=False)
    points = points_on_roads_routes_do_not_start_on(store)
    lines = []
    tallies = {"default": [0, 0, 0], "any": [0, 0, 0]}
    for way, lat, lon in points:
        row = [str(way)]
        for snapping in ("default", "any"):
            theirs = engine.Table(osrm.TableParameters(
                coordinates=[osrm.Coordinate((lon, lat)), osrm.Coordinate((to_lon, to_lat))], snapping=snapping))
            out = subprocess.run(
                [openmaps, "table", f"{lat},{lon}", f"{to_lat},{to_lon}", "--snapping", snapping, "--store", store],
                capture_output=True, text=True)
            try:
                ours = json.loads(out.stdout)
            except json.JSONDecodeError:
                row.append(f"{snapping}: ours failed ({out.stderr.strip()[:60]})")
                continue
            their_metres, our_metres = theirs["sources"][0]["distance"], ours["sources"][0]["distance"]
            their_seconds, our_seconds = theirs["durations"][0][1], ours["durations"][0][1]
            tally = tallies[snapping]
            tally[0] += 1
            tally[1] += abs(their_metres - our_metres) <= 0.5
            if their_seconds and our_seconds:
                tally[2] += abs(their_seconds - our_seconds) <= 0.05 * their_seconds
            row.append(f"{snapping}: OSRM {their_metres:.1f} m {their_seconds} s, ours {our_metres:.1f} m {our_seconds} s")
        lines.append("  ".join(row))
    for snapping, (count, met, close) in tallies.items():
        print(f"snapping={snapping}: {count} points, met as far as OSRM's {met}, durations within 5 % {close}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
