#!/usr/bin/python3
"""Vector tiles read back by the field's own readers, over a real extract.

Imports central Monaco (data/test-extracts/monaco-centre.osm.pbf) into a temporary store,
cuts its vector tiles (zooms 10-14) into a PMTiles archive and an MBTiles file with
`openmaps tiles --format mvt`, and reads them back with the `pmtiles` and
`mapbox-vector-tile` PyPI packages (independent of OpenMaps' own decoder): every tile
decodes, polygons are valid (shapely), every building's and road's vertices lie within a
pixel of the store's own geometry, and the attributes are as docs/tiles.md documents. Then
it serves the store and checks /tiles/vector/{z}/{x}/{y}.pbf (gzip, ETag, 304, 400, 404) and
/tiles/vector.json. Each check prints a line; exits 1 if any failed.

Usage: Tests/vector/vector_tiles_test.py [path/to/openmaps]   (default .build/debug/openmaps)
Needs the pinned wheels `make test` installs into .build/python (see the Makefile).
"""
import gzip
import http.client
import json
import math
import os
import socket
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

import mapbox_vector_tile
import shapely.geometry
from pmtiles.reader import MmapSource, Reader, all_tiles

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/openmaps")
EXTRACT = os.path.join(ROOT, "data/test-extracts/monaco-centre.osm.pbf")
BBOX = "7.41,43.728,7.43,43.745"
EXTENT = 4096

failures = 0


def check(condition, what):
    global failures
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures += 1


def project(lon, lat, z, x, y):
    """A coordinate in tile z/x/y's grid, y down (as MVT before the reader flips it)."""
    size = EXTENT * 2**z
    lat = max(min(lat, 85.0511287798), -85.0511287798)
    wx = (lon + 180) / 360 * size
    s = math.sin(math.radians(lat))
    wy = (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * size
    return wx - x * EXTENT, wy - y * EXTENT


def store_geometry(db, feature_id):
    """The rings or line of a stored feature: parts of little-endian int32 (lat, lon) pairs."""
    row = db.execute("SELECT geometry FROM feature WHERE id = ?", (feature_id,)).fetchone()
    if row is None:
        return None
    blob, parts, i = row[0], [], 0
    while i < len(blob):
        (count,) = struct.unpack_from("<i", blob, i)
        i += 4
        pairs = struct.unpack_from("<%di" % (2 * count), blob, i)
        i += 8 * count
        parts.append([(pairs[k + 1] / 1e7, pairs[k] / 1e7) for k in range(0, len(pairs), 2)])
    return parts


def distance_to_polyline(point, line):
    best = float("inf")
    for (ax, ay), (bx, by) in zip(line, line[1:]):
        dx, dy = bx - ax, by - ay
        length = dx * dx + dy * dy
        t = 0 if length == 0 else max(0, min(1, ((point[0] - ax) * dx + (point[1] - ay) * dy) / length))
        best = min(best, math.hypot(point[0] - ax - t * dx, point[1] - ay - t * dy))
    return best


def flatten(coordinates):
    """Every [x, y] of a decoded geometry's coordinates, however nested."""
    if coordinates and isinstance(coordinates[0], (int, float)):
        yield coordinates
    else:
        for part in coordinates:
            yield from flatten(part)


def tile_bounds(z, x, y, buffer=64):
    """The tile's box with its buffer in degrees: west, south, east, north."""
    def unproject(px, py):
        size = EXTENT * 2**z
        lon = px / size * 360 - 180
        lat = math.degrees(2 * math.atan(math.exp(math.pi - 2 * math.pi * py / size)) - math.pi / 2)
        return lon, lat
    west, north = unproject(x * EXTENT - buffer, y * EXTENT - buffer)
    east, south = unproject((x + 1) * EXTENT + buffer, (y + 1) * EXTENT + buffer)
    return west, south, east, north


def store_outlines(db, classes, z, x, y):
    """The store's features of `classes` meeting the tile, as lines in its grid (a tree of them)."""
    west, south, east, north = tile_bounds(z, x, y)
    rows = db.execute(
        "SELECT feature.id FROM feature_box JOIN feature ON feature.id = feature_box.id WHERE min_lon <= ? AND "
        "max_lon >= ? AND min_lat <= ? AND max_lat >= ? AND class IN (%s)" % ",".join("?" * len(classes)),
        (east, west, north, south, *classes)).fetchall()
    lines = []
    for (feature_id,) in rows:
        for part in store_geometry(db, feature_id) or []:
            projected = [project(lon, lat, z, x, y) for lon, lat in part]
            if len(projected) >= 2:
                lines.append(shapely.geometry.LineString(projected))
    return shapely.STRtree(lines) if lines else None


def check_tiles(tiles, db, source):
    layers, invalid, far, vertices, largest = set(), 0, 0, 0, 0
    fields = {}
    for (z, x, y), data in tiles:
        raw = gzip.decompress(data)
        largest = max(largest, len(raw))
        # y_coord_down: keep the tile's own grid (y down), as the store is projected here.
        decoded = mapbox_vector_tile.decode(raw, default_options={"y_coord_down": True})
        trees = {}
        for name, layer in decoded.items():
            layers.add(name)
            for feature in layer["features"]:
                fields.setdefault(name, set()).update(feature["properties"].keys())
                geometry = feature["geometry"]
                if geometry["type"] in ("Polygon", "MultiPolygon"):
                    shape = shapely.geometry.shape(geometry)
                    if not shape.is_valid:
                        invalid += 1
            # Every vertex of the buildings and roads within a pixel of the store's own lines.
            if name in ("building", "transportation") and z == 14:
                classes = ("building",) if name == "building" else ("road", "railway")
                tree = trees.setdefault(name, store_outlines(db, classes, z, x, y))
                points = [
                    shapely.geometry.Point(point) for feature in layer["features"]
                    for point in flatten(feature["geometry"]["coordinates"])
                    # The buffer square's corners, where a clipped area turns, are not on the
                    # feature's own outline.
                    if not (point[0] in (-64, EXTENT + 64) and point[1] in (-64, EXTENT + 64))
                ]
                if tree is None or not points:
                    continue
                _, distances = tree.query_nearest(points, return_distance=True, all_matches=False)
                vertices += len(points)
                far += int((distances > EXTENT / 256).sum())
    check("transportation" in layers and "building" in layers and "poi" in layers,
          "%s: the layers decode with mapbox-vector-tile (%s)" % (source, ", ".join(sorted(layers))))
    check(invalid == 0, "%s: every polygon is valid for shapely (%d invalid)" % (source, invalid))
    check(vertices > 1000 and far == 0,
          "%s: %d building and road vertices, %d more than a pixel from the store's" % (source, vertices, far))
    check(largest < 500_000, "%s: the largest tile is %d bytes uncompressed (under 500 KB)" % (source, largest))
    documented = {
        "transportation": {"class", "brunnel"}, "transportation_name": {"name", "name:latin", "class"},
        "building": {"render_height", "render_min_height"}, "poi": {"class", "subclass", "rank", "name"},
        "housenumber": {"housenumber"},
    }
    for layer, names in documented.items():
        check(names <= fields.get(layer, set()), "%s: %s carries %s" % (source, layer, ", ".join(sorted(names))))


def get(url, headers=None):
    try:
        response = urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}))
        return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def serve(store, cache, *options):
    """`openmaps serve` on a free port with `options`, once it answers /health: the process and its URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([BINARY, "serve", "--port", str(port), "--store", store, "--cache", cache, *options],
                              stderr=subprocess.DEVNULL)
    base = "http://127.0.0.1:%d" % port
    for _ in range(100):
        try:
            if urllib.request.urlopen(base + "/health").status == 200:
                break
        except Exception:
            time.sleep(0.2)
    return server, base


def remote_archive(store, work, url, archive):
    """`serve --tiles URL`: the archive read from a web host (here another server) by Range
    requests, tile for tile the file's; its own /tiles/vector.pmtiles a redirect to the host."""
    server, base = serve(store, os.path.join(work, "cache3"), "--tiles", url)
    try:
        with open(archive, "rb") as f:
            local = Reader(MmapSource(f))
            tiles = list(all_tiles(local.get_bytes))
        same = all(get(base + "/tiles/vector/%d/%d/%d.pbf" % (z, x, y), {"Accept-Encoding": "gzip"})[2] == data
                   for (z, x, y), data in tiles)
        check(same and len(tiles) > 5,
              "serve --tiles URL reads the archive from its host by Range requests, tile for tile (%d)" % len(tiles))
        parts = urllib.parse.urlsplit(base)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        connection.request("GET", "/tiles/vector.pmtiles")
        answer = connection.getresponse()
        check(answer.status == 302 and answer.getheader("Location") == url,
              "its /tiles/vector.pmtiles sends clients to the host (%s %s)" % (answer.status, answer.getheader("Location")))
        connection.close()
    finally:
        server.terminate()
        server.wait(10)
    # A host that answers the whole file, not the range, is refused by name.
    host = urllib.parse.urlsplit(url)
    refused = subprocess.run([BINARY, "serve", "--port", "1", "--store", store, "--tiles",
                              "%s://%s/health" % (host.scheme, host.netloc)], capture_output=True, text=True, timeout=60)
    check(refused.returncode != 0 and "no Range support" in refused.stderr,
          "a host without Range support is refused: %s" % refused.stderr.strip()[:160])


def main():
    work = tempfile.mkdtemp(prefix="openmaps-vector-")
    store = os.path.join(work, "store.sqlite")
    subprocess.run([BINARY, "import", EXTRACT, "--store", store], check=True, capture_output=True)
    db = sqlite3.connect(store)

    archive = os.path.join(work, "monaco.pmtiles")
    run = subprocess.run([BINARY, "tiles", "--format", "mvt", "--bbox", BBOX, "--zooms", "10-14", "--out", archive,
                          "--store", store], capture_output=True, text=True)
    check(run.returncode == 0 and os.path.exists(archive), "openmaps tiles --format mvt writes a PMTiles archive")
    with open(archive, "rb") as f:
        reader = Reader(MmapSource(f))
        header = reader.header()
        check(header["tile_type"].value == 1 and header["tile_compression"].value == 2 and header["clustered"],
              "the pmtiles package reads the header: MVT, gzip, clustered")
        check((header["min_zoom"], header["max_zoom"]) == (10, 14), "zooms 10-14 in the header")
        metadata = reader.metadata()
        check({l["id"] for l in metadata.get("vector_layers", [])} >= {"water", "transportation", "building", "poi"},
              "the metadata declares the vector layers")
        tiles = list(all_tiles(reader.get_bytes))
        check(len(tiles) == header["addressed_tiles_count"] and len(tiles) > 5,
              "every addressed tile is read back (%d)" % len(tiles))
        check_tiles(tiles, db, "PMTiles")

    mbtiles = os.path.join(work, "monaco.mbtiles")
    subprocess.run([BINARY, "tiles", "--format", "mvt", "--bbox", BBOX, "--zooms", "13-14", "--out", mbtiles,
                    "--store", store], check=True, capture_output=True)
    tiles_db = sqlite3.connect(mbtiles)
    meta = dict(tiles_db.execute("SELECT name, value FROM metadata"))
    check(meta.get("format") == "pbf" and "vector_layers" in json.loads(meta.get("json", "{}")),
          "MBTiles says format=pbf with vector_layers in its json")
    rows = tiles_db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles").fetchall()
    check_tiles([((z, x, (1 << z) - 1 - row), data) for z, x, row, data in rows], db, "MBTiles")

    refused = subprocess.run([BINARY, "tiles", "--format", "mvt", "--zooms", "10-15", "--bbox", BBOX, "--out",
                              os.path.join(work, "x.pmtiles"), "--store", store], capture_output=True, text=True)
    check(refused.returncode != 0 and "0-14" in refused.stderr, "zoom 15 is refused for vector tiles, saying 0-14")

    server, base = serve(store, os.path.join(work, "cache"))
    try:
        x = int((7.42 + 180) / 360 * 2**14)
        y = int((1 - math.asinh(math.tan(math.radians(43.735))) / math.pi) / 2 * 2**14)
        status, headers, body = get(base + "/tiles/vector/14/%d/%d.pbf" % (x, y), {"Accept-Encoding": "gzip"})
        check(status == 200 and headers.get("Content-Encoding") == "gzip"
              and headers.get("Content-Type") == "application/vnd.mapbox-vector-tile",
              "/tiles/vector/14/x/y.pbf is a gzip-encoded vector tile")
        decoded = mapbox_vector_tile.decode(gzip.decompress(body))
        check("building" in decoded and "transportation" in decoded, "the served tile decodes")
        status, _, _ = get(base + "/tiles/vector/14/%d/%d.pbf" % (x, y), {"If-None-Match": headers.get("ETag", "")})
        check(status == 304, "the same ETag is answered 304")
        status, plain_headers, plain = get(base + "/tiles/vector/14/%d/%d.pbf" % (x, y))
        check(status == 200 and "Content-Encoding" not in plain_headers and plain == gzip.decompress(body),
              "a client that does not accept gzip gets the tile inflated")
        check(get(base + "/tiles/vector/15/0/0.pbf")[0] == 404, "zoom 15 is 404 (clients zoom past 14)")
        check(get(base + "/tiles/vector/3/9/0.pbf")[0] == 400, "x outside the zoom's grid is 400")
        check(get(base + "/tiles/vector/a/0/0.pbf")[0] == 400, "a z that is not a number is 400")
        status, _, body = get(base + "/tiles/vector.json")
        tilejson = json.loads(body)
        check(status == 200 and tilejson["tiles"][0].endswith("/tiles/vector/{z}/{x}/{y}.pbf")
              and {l["id"] for l in tilejson["vector_layers"]} >= {"transportation", "building", "place"},
              "/tiles/vector.json is TileJSON with vector_layers")
    finally:
        server.terminate()
        server.wait(10)

    # The archive served as a static host serves it, and the vector tiles read from it.
    server, base = serve(store, os.path.join(work, "cache2"), "--tiles", archive)
    try:
        def over_http(offset, length):
            status, headers, body = get(base + "/tiles/vector.pmtiles",
                                        {"Range": "bytes=%d-%d" % (offset, offset + length - 1)})
            assert status == 206, status
            return body

        remote = Reader(over_http)
        with open(archive, "rb") as f:
            local = Reader(MmapSource(f))
            same = all(remote.get(z, x, y) == data for (z, x, y), data in all_tiles(local.get_bytes))
        check(same and remote.header()["max_zoom"] == 14,
              "the pmtiles package reads the served archive over HTTP Range requests, tile for tile")
        status, headers, body = get(base + "/tiles/vector.pmtiles", {"Range": "bytes=0-126"})
        size = os.path.getsize(archive)
        check(status == 206 and len(body) == 127 and headers.get("Content-Range") == "bytes 0-126/%d" % size
              and body[:7] == b"PMTiles", "a Range request is answered 206 with its Content-Range")
        check(get(base + "/tiles/vector.pmtiles", {"Range": "bytes=%d-" % (size + 10)})[0] == 416,
              "a range past the end is 416")
        status, _, whole = get(base + "/tiles/vector.pmtiles")
        check(status == 200 and len(whole) == size, "without a Range the whole archive comes")
        with open(archive, "rb") as f:
            expected = Reader(MmapSource(f)).get(14, x, y)
        status, headers, body = get(base + "/tiles/vector/14/%d/%d.pbf" % (x, y), {"Accept-Encoding": "gzip"})
        check(status == 200 and body == expected, "/tiles/vector is read from the archive given with --tiles")
        check(get(base + "/tiles/vector/14/0/0.pbf", {"Accept-Encoding": "gzip"})[0] == 204,
              "a tile the archive does not hold is 204 No Content")
        check(get(base + "/tiles/vector.pmtiles", {"Range": "bytes=0-126", "If-Match": '"another"'})[0] == 412,
              "a range of another version of the archive (If-Match) is 412")
        remote_archive(store, work, base + "/tiles/vector.pmtiles", archive)
    finally:
        server.terminate()
        server.wait(10)
    print("vector tiles: %s" % ("all checks passed" if failures == 0 else "%d checks FAILED" % failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
