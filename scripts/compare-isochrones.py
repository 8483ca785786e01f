#!/usr/bin/python3
"""How two engines' isochrones overlap: for each origin and contour both drew, the intersection
over union of the two areas (shapely), then the median and the share at 0.8 or more, as one line.
Needs the `make pytools` packages (PYTHONPATH=.build/python).

    compare-isochrones.py OURS.json THEIRS.json LABEL
"""
import json
import statistics
import sys

import shapely.geometry


def areas(collection):
    found = {}
    for feature in collection.get("features", []):
        contour = float(feature.get("properties", {}).get("contour", 0))
        try:
            shape = shapely.geometry.shape(feature["geometry"]).buffer(0)
        except Exception:
            continue
        found[contour] = shape if contour not in found else found[contour].union(shape)
    return found


def main():
    ours, theirs, label = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
    scores = []
    for a, b in zip(ours, theirs):
        mine, other = areas(a), areas(b)
        for contour in sorted(set(mine) & set(other)):
            union = mine[contour].union(other[contour]).area
            if union > 0:
                scores.append(mine[contour].intersection(other[contour]).area / union)
    if not scores:
        print(f"  {label}: no contour both drew")
        return
    at_least = sum(1 for s in scores if s >= 0.8)
    print(f"  {label}: overlap (intersection over union) median {statistics.median(scores):.2f}, "
          f"{at_least} of {len(scores)} contours at 0.8 or more")


if __name__ == "__main__":
    main()
