#!/usr/bin/env python3
"""mipi-dbi-firmware.py -- turns a panel's initialisation commands (a text file) into the
firmware file the kernel's panel-mipi-dbi driver loads (/lib/firmware/panel.bin, or NAME.bin
with the overlay's compatible=NAME\\0panel-mipi-dbi-spi), in the format of notro's mipi-dbi-cmd:
"MIPI DBI" and 7 zero bytes, format version 1, then per command its byte, the number of
parameters and the parameters; "delay MS" is command 0 with one parameter.

    python3 mipi-dbi-firmware.py ili9341-320x240.txt panel.bin
    sudo cp panel.bin /lib/firmware/panel.bin

The text file has one "command 0xNN [0xPP ...]" or "delay MS" per line; '#' starts a comment.
"""
import sys


def convert(lines):
    out = bytearray(b"MIPI DBI" + bytes(7) + bytes([1]))
    for number, raw in enumerate(lines, 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        try:
            if words[0] == "command" and 2 <= len(words) <= 257:
                values = [int(w, 0) for w in words[1:]]
                if not all(0 <= v <= 255 for v in values) or values[0] == 0:
                    raise ValueError("bytes 0x01..0xff (command 0 means delay)")
                out += bytes([values[0], len(values) - 1] + values[1:])
            elif words[0] == "delay" and len(words) == 2:
                ms = int(words[1], 0)
                if not 0 <= ms <= 255:
                    raise ValueError("a delay of 0 to 255 ms (split longer ones)")
                out += bytes([0, 1, ms])
            else:
                raise ValueError("'command 0xNN [0xPP ...]' or 'delay MS'")
        except ValueError as problem:
            sys.exit(f"line {number}: {raw.strip()!r}: expected {problem}")
    return bytes(out)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as source:
        data = convert(source)
    with open(sys.argv[2], "wb") as target:
        target.write(data)
    print(f"{sys.argv[2]}: {len(data)} bytes")
