#!/usr/bin/env python3
"""Records Open Location Code test vectors, once, from the specification's Python reference
implementation (the `openlocationcode` package of PyPI, 1.0.1, from the
google/open-location-code project), for the plus-code tests
(data/test-extracts/open-location-code.json):

- encode: [latitude, longitude, length, code or null where the length is refused];
- decode: [code, south, west, north, east, digits];
- shorten: [code, latitude, longitude, shortened code];
- recover: [short code, latitude, longitude, full code];
- validity: [text, isValid, isShort, isFull].

    pip download --no-deps --no-binary :all: openlocationcode==1.0.1
    tar xzf openlocationcode-1.0.1.tar.gz
    PYTHONPATH=openlocationcode-1.0.1 record-plus-codes.py OUT.json

The places are drawn at random with a fixed seed (33), with the cells' edges, the poles, the
antimeridian and places outside the world's ranges added on purpose.
"""
import json
import random
import sys

import openlocationcode.openlocationcode as olc

ALPHABET = "23456789CFGHJMPQRVWX"


def encoded(latitude, longitude, length):
    try:
        return olc.encode(latitude, longitude, length)
    except ValueError:
        return None


def places(draw):
    """Places to encode: random ones, on cell edges, at the world's edges and past them."""
    for _ in range(400):
        yield draw.uniform(-90, 90), draw.uniform(-180, 180)
    # On the edges of the pair cells (20°, 1°, 0.05°, 0.0025°, 0.000125°) and the grid's.
    for resolution in (20, 1, 0.05, 0.0025, 0.000125, 0.000025, 0.000005):
        for _ in range(12):
            yield (round(draw.randrange(int(-90 / resolution), int(90 / resolution)) * resolution, 12),
                   round(draw.randrange(int(-180 / resolution), int(180 / resolution)) * resolution, 12))
    for latitude in (90, -90, 89.99999, -89.99999, 0, 95, -95, 1e-10, -1e-10):
        for longitude in (180, -180, 179.99999, -179.99999, 0, 360, 540, -541.5, 1e-10, -1e-10):
            yield latitude, longitude


def main():
    out = sys.argv[1]
    draw = random.Random(33)
    encode, decode, shorten, recover, validity = [], [], [], [], []
    lengths = list(range(0, 17)) + [20, -1]
    for latitude, longitude in places(draw):
        length = draw.choice(lengths)
        encode.append([latitude, longitude, length, encoded(latitude, longitude, length)])
        full = encoded(latitude, longitude, draw.choice([2, 4, 6, 8, 10, 11, 12, 13, 14, 15]))
        area = olc.decode(full)
        decode.append([full, area.latitudeLo, area.longitudeLo, area.latitudeHi, area.longitudeHi,
                       area.codeLength])
    # Every length at a few places, so each appears.
    for latitude, longitude in ((47.365590, 8.524997), (-41.2730, 174.7805), (90, 180), (-90, -180)):
        for length in range(1, 17):
            encode.append([latitude, longitude, length, encoded(latitude, longitude, length)])
    # Shortening and recovering: references near the code's centre at every distance, and
    # around the poles and the antimeridian.
    for _ in range(150):
        latitude, longitude = draw.uniform(-89.5, 89.5), draw.uniform(-180, 180)
        code = olc.encode(latitude, longitude, draw.choice([8, 10, 11, 12]))
        centre = olc.decode(code)
        for spread in (0.0001, 0.0007, 0.01, 0.03, 0.2, 0.4, 3, 12):
            reference = (max(-90, min(90, centre.latitudeCenter + draw.uniform(-spread, spread))),
                         centre.longitudeCenter + draw.uniform(-spread, spread))
            short = olc.shorten(code, *reference)
            if short == "+":
                # The reference drops all eight digits of an eight-digit code near its centre,
                # leaving a "+" that names nothing; such rows are left out.
                continue
            shorten.append([code, reference[0], reference[1], short])
            if olc.isShort(short):
                recover.append([short, reference[0], reference[1], olc.recoverNearest(short, *reference)])
    edges = [(89.6, 0), (-89.6, 0), (10, 179.6), (10, -179.6), (89.99, 179.99), (-89.99, -179.99)]
    for latitude, longitude in edges:
        for short in ("2222+22", "XXXX+XX", "C2X2+X2", "X2+22", "22+XX", "+2X", "2X+", "9XXX+X"):
            if olc.isShort(short):
                recover.append([short, latitude, longitude, olc.recoverNearest(short, latitude, longitude)])
        for _ in range(20):
            reference = (max(-90, min(90, latitude + draw.uniform(-0.5, 0.5))), longitude + draw.uniform(-0.5, 0.5))
            short = "".join(draw.choice(ALPHABET) for _ in range(4)) + "+" + "".join(
                draw.choice(ALPHABET) for _ in range(draw.choice([0, 2, 3])))
            recover.append([short, reference[0], reference[1], olc.recoverNearest(short, *reference)])
    # Validity: well-formed and broken texts.
    texts = ["8FWC2345+G6", "8FWC2345+G6G", "8fwc2345+", "8FWCX400+", "WC2345+G6g", "2345+G6", "45+G6",
             "+G6", "G+", "8FWC2345+G", "8FWC2_45+G6", "8FWC2η45+G6", "8FWC2345+G6+", "8FWC2345G6+",
             "8FWC2300+G6", "WC2300+G6g", "WC2345+G", "WC2300+", "8F000000+", "80000000+", "8FVC0000+",
             "8FVC000+", "8FVC00+", "8FVC0+00", "8FVC+0000", "22222222+22222222", "9FWC2345+G6",
             "8XWC2345+G6", "C2222222+", "88888888888888888888+XX", "+", "", "8", "88+", "8888+",
             "888888+", "88888888+", "888888888+", "8888888888+", "88888888+8", "88888888+88",
             "2222+2222222222", "2222+222", "22+", "22+22", "0000+", "00000000+", "8FWC2345+ G6",
             " 8FWC2345+G6", "8FWC 2345+G6", "8FWC2345++G6", "+8FWC2345G6", "8FWC23450+"]
    for _ in range(200):
        length = draw.randrange(1, 14)
        text = "".join(draw.choice(ALPHABET + "0+a") for _ in range(length))
        texts.append(text)
    for text in texts:
        validity.append([text, olc.isValid(text), olc.isShort(text), olc.isFull(text)])
    vectors = {"reference": "openlocationcode 1.0.1 (PyPI, google/open-location-code's Python implementation)",
               "seed": 33, "encode": encode, "decode": decode, "shorten": shorten, "recover": recover,
               "validity": validity}
    with open(out, "w") as file:
        json.dump(vectors, file, ensure_ascii=False, separators=(",", ":"))
        file.write("\n")
    print(f"{out}: {len(encode)} encodings, {len(decode)} decodings, {len(shorten)} shortenings, "
          f"{len(recover)} recoveries, {len(validity)} validity checks")


main()
