#!/bin/sh
# ha-python.sh -- runs a Python script with Home Assistant's own package, of either release the
# project checks against:
#
#   tools/ha-python.sh [--current] [--bind DIR]... SCRIPT [ARG...]
#
# without --current: homeassistant 2024.1.6, the last to run on Python 3.11 (Debian 12's; 2024.2
# needs 3.12), in a venv kept in ~/.cache/glance-ha-venv; with --current: homeassistant 2026.2.3 in
# a Debian 13 root of its own (tools/ha-current.sh, which --bind DIR is passed to: the folder is
# then the same path there). Either way with what Home Assistant imports to run with its MQTT
# integration (tools/ha-requirements.py --bootstrap mqtt), so that it can run with --skip-pip. SCRIPT is read here and run there (python -c), with ARGs; standard input and output
# are passed through. Used by tools/ha-schemas.sh and the test against a running Home Assistant.
#
# The first run installs the release from PyPI (2024.1.6: about 100 MB, a minute or two; the
# current one: tools/ha-current.sh) and says so; later runs use it as it is.
#
# Exit status: the script's, or 69 when the release cannot be had here (no python3 -m venv, no
# network; for the current one also without root), said on standard error. While every part is
# required (GLANCE_REQUIRE_ALL_PARTS, make test's default; tools/switches.sh) that is a failure: 1,
# with a line `unavailable: WHY` on standard output.
set -u
here=$(dirname "$0")
. "$here/switches.sh"
current=0
binds=""
while [ $# -gt 0 ]; do
    case "$1" in
    --current) current=1; shift ;;
    --bind) binds="$binds --bind $2"; shift 2 ;;   # (folders without spaces: the tests' scratch ones)
    -*) echo "ha-python: unknown option $1 (--current, --bind DIR)" >&2; exit 64 ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "usage: tools/ha-python.sh [--current] [--bind DIR]... SCRIPT [ARG...]" >&2; exit 64; }
script=$1
shift
[ -f "$script" ] || { echo "ha-python: no script $script" >&2; exit 66; }
if [ $current = 1 ]; then
    # shellcheck disable=SC2086
    exec "$here/ha-current.sh" $binds python -c "$(cat "$script")" "$@"
fi

version=2024.1.6
venv="${XDG_CACHE_HOME:-$HOME/.cache}/glance-ha-venv"
unavailable() {
    echo "ha-python: cannot install homeassistant $version ($1)" >&2
    if glance_required; then
        echo "unavailable: Home Assistant $version could not be installed from PyPI into $venv ($1) and every part is required (GLANCE_REQUIRE_ALL_PARTS=$GLANCE_REQUIRE_ALL_PARTS)"
        exit 1
    fi
    exit 69
}
mkdir -p "$(dirname "$venv")"
exec 8>"$venv.lock"
if [ ! -f "$venv/.installed-$version" ] || [ ! -f "$venv/.core-requirements-$version" ]; then
    flock 8
fi
if [ ! -f "$venv/.installed-$version" ]; then
    echo "ha-python: first run: installing homeassistant $version from PyPI into $venv (cached for later runs)" >&2
    rm -rf "$venv"
    if ! python3 -m venv "$venv" >&2 || ! "$venv/bin/pip" install -q "homeassistant==$version" >&2; then
        rm -rf "$venv"
        unavailable "python3-venv missing, or no network"
    fi
    touch "$venv/.installed-$version"
fi
if [ ! -f "$venv/.core-requirements-$version" ]; then
    echo "ha-python: installing what Home Assistant's MQTT integration imports into $venv (once)" >&2
    if ! "$venv/bin/python" "$here/ha-requirements.py" --bootstrap mqtt >"$venv/core-requirements.txt" ||
        ! "$venv/bin/pip" install -q -r "$venv/core-requirements.txt" >&2; then
        unavailable "pip install of what the MQTT integration imports failed: no network?"
    fi
    touch "$venv/.core-requirements-$version"
fi
flock -u 8
flock -s 8
exec "$venv/bin/python" -c "$(cat "$script")" "$@"
