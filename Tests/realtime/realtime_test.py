"""GTFS-Realtime feeds written by Google's own bindings (gtfs-realtime-bindings, pinned in the
Makefile) read by `openmaps import --realtime` and followed by `openmaps route --mode transit`,
on the committed New York subway feed: a feed OpenMaps did not write.

    PYTHONPATH=.build/python python3 Tests/realtime/realtime_test.py .build/debug/openmaps
"""
import json
import os
import subprocess
import sys
import tempfile

from google.transit import gtfs_realtime_pb2 as rt

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/openmaps")
HERE = os.path.dirname(os.path.abspath(__file__))
FEED = os.path.join(HERE, "..", "..", "data", "seed-places", "nyc-subway-2018-partial.zip")
# 14 St–8 Av to Sutphin Blvd–Archer Av–JFK Airport, Tuesday 2 October 2018 at 08:00.
ROUTE = ["route", "40.7395,-74.0030", "40.7005,-73.8080", "--mode", "transit"]


def run(*arguments, check=True):
    done = subprocess.run([BIN, *arguments], capture_output=True, text=True)
    if check and done.returncode != 0:
        raise SystemExit(f"openmaps {' '.join(arguments)} failed: {done.stderr}")
    return done


def rides(document):
    return [leg for leg in document["routes"][0]["legs"] if leg["mode"] == "transit"]


def main():
    failures = []

    def expect(condition, message):
        if not condition:
            failures.append(message)

    with tempfile.TemporaryDirectory() as folder:
        store = os.path.join(folder, "store.sqlite")
        run("import", FEED, "--store", store, "--region", "nyc-subway")
        before = json.loads(run(*ROUTE, "--depart", "2018-10-02T08:00", "--store", store).stdout)
        first = rides(before)[0]
        expect(first["route"] == "E" and first["realtime"] is False, f"the E on the timetable: {first}")

        feed = rt.FeedMessage()
        feed.header.gtfs_realtime_version = "2.0"
        feed.header.incrementality = rt.FeedHeader.FULL_DATASET
        feed.header.timestamp = 1538481000  # 07:50 in New York
        entity = feed.entity.add(id="late")
        entity.trip_update.trip.trip_id = first["trip"]
        entity.trip_update.trip.start_date = "20181002"
        update = entity.trip_update.stop_time_update.add(stop_sequence=1)
        update.departure.delay = 600
        alert = feed.entity.add(id="works").alert
        alert.informed_entity.add(route_id="E")
        alert.effect = rt.Alert.SIGNIFICANT_DELAYS
        alert.header_text.translation.add(text="E trains are delayed", language="en")
        alert.header_text.translation.add(text="Los trenes E van con retraso", language="es")
        vehicle = feed.entity.add(id="v").vehicle
        vehicle.trip.trip_id = first["trip"]
        vehicle.position.latitude = 40.7402
        vehicle.position.longitude = -74.0021
        vehicle.position.bearing = 45
        path = os.path.join(folder, "trip-updates.pb")
        with open(path, "wb") as out:
            out.write(feed.SerializeToString())

        imported = run("import", "--realtime", path, "--store", store)
        expect("nyc-subway: realtime feed" in imported.stdout, f"kept for the subway: {imported.stdout}")
        expect("1 run at predicted times" in imported.stdout and "1 alert, 1 vehicle" in imported.stdout,
               f"what it does: {imported.stdout}")

        after = json.loads(run(*ROUTE, "--depart", "2018-10-02T08:09", "--store", store, "--lang", "es").stdout)
        late = rides(after)[0]
        expect(late["trip"] == first["trip"] and late["departure_delay"] == 600 and late["status"] == "late",
               f"the late E boarded at its predicted time: {late}")
        expect(late["scheduled_departure"] == first["departure"], f"its timetable time: {late}")
        alerts = after["routes"][0]["alerts"]
        expect([a.get("header") for a in alerts] == ["Los trenes E van con retraso"], f"the alert in Spanish: {alerts}")
        text = run(*ROUTE, "--depart", "2018-10-02T08:09", "--store", store, "--format", "text", "--lang", "hi").stdout
        expect("(10 मिनट देरी से)" in text, f"the status in Hindi: {text}")

        # A message cut short is refused by field, and the one kept before stays.
        broken = os.path.join(folder, "broken.pb")
        with open(broken, "wb") as out:
            out.write(feed.SerializeToString()[:-7])
        refused = run("import", "--realtime", broken, "--store", store, "--feed", "nyc-subway", check=False)
        expect(refused.returncode != 0 and "not a GTFS-Realtime feed" in refused.stderr, f"refused: {refused.stderr}")
        kept = json.loads(run(*ROUTE, "--depart", "2018-10-02T08:09", "--store", store).stdout)
        expect(rides(kept)[0]["departure_delay"] == 600, "the message kept before still followed")

    if failures:
        print("\n".join("FAIL: " + f for f in failures))
        raise SystemExit(1)
    print("realtime: Google's bindings' feed read and followed (delay, alert in Spanish, Hindi status, refusal)")


if __name__ == "__main__":
    main()
