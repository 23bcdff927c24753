#!/bin/sh
# Validates Home Assistant MQTT discovery messages (lines "TOPIC PAYLOAD" on standard input) with
# Home Assistant's own schemas (tools/ha-schemas.py):
#
#   tools/ha-schemas.sh             with homeassistant 2024.1.6 (Python 3.11, Debian 12's)
#   tools/ha-schemas.sh --current   with the current release, 2026.2.3 (Python 3.13, in a Debian
#                                   13 root; needs root)
#
# run by tools/ha-python.sh, which installs each release on its first run (cached, said so).
#
# Exit status: 0 all valid, 1 one or more invalid, 69 the release cannot be had here (no
# python3 -m venv, no network, not root for the current one): the caller checks the documented
# keys instead, said so. While every part is required (GLANCE_REQUIRE_ALL_PARTS, make test's
# default; tools/switches.sh) a check without the schemas is a failure: 1, with the reason on
# standard output.
set -u
here=$(dirname "$0")
case "${1:-}" in
"" | --current) ;;
*) echo "ha-schemas: unknown option $1 (--current: the current release)" >&2; exit 64 ;;
esac
exec "$here/ha-python.sh" "$@" "$here/ha-schemas.py"
