#!/usr/bin/env python3
"""Writes a 1″ SRTM cell (3601 × 3601 big-endian 16-bit heights, rows from the north) of a
rolling landscape, the same every run: the benchmarks' elevation model (no registry ships a
real one).

    make-dem.py OUT.hgt
"""
import array
import math
import sys


def main():
    size = 3601
    heights = array.array("h")
    # A few waves of different lengths and directions: hills and valleys 100 m to 2 km across.
    waves = [(600.0, 0.0021, 0.0013, 0.3), (250.0, 0.0071, -0.0049, 1.1), (90.0, 0.019, 0.027, 2.0),
             (35.0, 0.061, -0.043, 0.7)]
    for row in range(size):
        for column in range(size):
            h = 700.0
            for amplitude, kx, ky, phase in waves:
                h += amplitude * math.sin(kx * column + ky * row + phase)
            heights.append(int(h))
    if sys.byteorder == "little":
        heights.byteswap()
    with open(sys.argv[1], "wb") as out:
        heights.tofile(out)


if __name__ == "__main__":
    main()
