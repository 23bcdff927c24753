#!/bin/sh
# Validates Home Assistant MQTT discovery messages (lines "TOPIC PAYLOAD" on standard input) with
# Home Assistant's own schemas (tools/ha-schemas.py), from the homeassistant package in a venv
# kept in ~/.cache/glance-ha-venv. The first run downloads it from PyPI (about 100 MB, a few
# minutes) and says so; later runs use it as it is.
#
# Exit status: 0 all valid, 1 one or more invalid, 69 the package cannot be installed (no
# python3 -m venv, no network): the caller checks the documented keys instead, said so. While
# every part is required (GLANCE_REQUIRE_ALL_PARTS, make test's default; tools/switches.sh) a
# check without the schemas is a failure: 1, with the reason on standard output.
set -u
version=2024.1.6   # the last to run on Python 3.11 (Debian 12's; 2024.2 needs 3.12)
venv="${XDG_CACHE_HOME:-$HOME/.cache}/glance-ha-venv"
here=$(dirname "$0")
if [ ! -f "$venv/.installed-$version" ]; then
    echo "ha-schemas: first run: installing homeassistant $version from PyPI into $venv (cached for later runs)" >&2
    rm -rf "$venv"
    if ! python3 -m venv "$venv" >&2 || ! "$venv/bin/pip" install -q "homeassistant==$version" "paho-mqtt==1.6.1" >&2; then
        echo "ha-schemas: cannot install homeassistant $version (python3-venv missing, or no network)" >&2
        rm -rf "$venv"
        . "$here/switches.sh"
        if glance_required; then
            echo "invalid: Home Assistant's schemas could not be installed (homeassistant $version from PyPI into $venv) and every part is required (GLANCE_REQUIRE_ALL_PARTS=$GLANCE_REQUIRE_ALL_PARTS): no check without them"
            exit 1
        fi
        exit 69
    fi
    touch "$venv/.installed-$version"
fi
exec "$venv/bin/python" "$here/ha-schemas.py"
