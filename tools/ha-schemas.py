"""Validates Home Assistant MQTT discovery messages with Home Assistant's own schemas.

Reads lines `TOPIC PAYLOAD` (mosquitto_sub -v) on standard input; each PAYLOAD is checked with the
DISCOVERY_SCHEMA of the component in TOPIC (PREFIX/COMPONENT/NODE/OBJECT/config), of the
homeassistant package it runs with (tools/ha-python.sh: 2024.1.6, or the current release). A key
the schema drops counts as invalid too -- the schemas remove what they do not know, so that is a
misspelt key -- unless a later release defines it (LATER): an older one drops it, which is right
for that release (said on the line). Prints one line per message; exit 0 when all are valid, 1
otherwise.
"""
import asyncio
import json
import sys
import tempfile

from homeassistant.const import __version__
from homeassistant.core import HomeAssistant

# Keys a later release defines than the oldest one checked, with the release that added them.
LATER = {
    "default_entity_id": "2025.10",  # replaces object_id (home-assistant/core#151775)
}


def release(text):
    return tuple(int(part) for part in text.split(".")[:2])


# First: breaks an import cycle of websocket_api and http when the mqtt component is imported
# alone (2024.1).
import homeassistant.components.persistent_notification  # noqa: E402, F401
from homeassistant.components.mqtt import button, event, image, number, select, sensor, switch  # noqa: E402
from homeassistant.components.mqtt.light import schema_basic  # noqa: E402

try:
    from homeassistant.components.mqtt.notify import DISCOVERY_SCHEMA as NOTIFY_SCHEMA
except ImportError:
    # MQTT notify came with Home Assistant 2024.5 (the pinned 2024.1.6 runs on Debian 12's Python
    # and ignores a notify entity, saying so): its DISCOVERY_SCHEMA as 2024.5 builds it, from the
    # same parts of this version.
    import voluptuous as vol
    import homeassistant.helpers.config_validation as cv
    from homeassistant.components.mqtt.config import MQTT_BASE_SCHEMA
    from homeassistant.components.mqtt.mixins import MQTT_ENTITY_COMMON_SCHEMA
    from homeassistant.components.mqtt.util import valid_publish_topic

    NOTIFY_SCHEMA = MQTT_BASE_SCHEMA.extend(
        {
            vol.Optional("command_template"): cv.template,
            vol.Required("command_topic"): valid_publish_topic,
            vol.Optional("name"): vol.Any(cv.string, None),
            vol.Optional("retain", default=False): cv.boolean,
        }
    ).extend(MQTT_ENTITY_COMMON_SCHEMA.schema).extend({}, extra=vol.REMOVE_EXTRA)

SCHEMAS = {
    "light": schema_basic.DISCOVERY_SCHEMA_BASIC,
    "select": select.DISCOVERY_SCHEMA,
    "button": button.DISCOVERY_SCHEMA,
    "switch": switch.DISCOVERY_SCHEMA,
    "sensor": sensor.DISCOVERY_SCHEMA,
    "event": event.DISCOVERY_SCHEMA,
    "image": image.DISCOVERY_SCHEMA,
    "number": number.DISCOVERY_SCHEMA,
    "notify": NOTIFY_SCHEMA,
}


def check(lines):
    """Each line's message by its component's schema: the number found invalid."""
    bad = 0
    for line in lines:
        line = line.rstrip("\n")
        if not line:
            continue
        topic, _, payload = line.partition(" ")
        component = topic.split("/")[1] if topic.count("/") >= 2 else ""
        try:
            given = json.loads(payload)
            valid = SCHEMAS[component](given)
            dropped = sorted(set(given) - set(valid))
            later = [k for k in dropped if k in LATER and release(__version__) < release(LATER[k])]
            unknown = [k for k in dropped if k not in later]
            if unknown:
                raise ValueError("keys the schema does not know: " + ", ".join(unknown))
            note = "".join(f" ({k}: defined from {LATER[k]}, dropped by {__version__})" for k in later)
            print("valid", topic + note)
        except Exception as error:  # voluptuous's Invalid, a bad component, bad JSON
            bad += 1
            print("invalid", topic, type(error).__name__, error)
    return bad


async def main():
    # Validated as Home Assistant's discovery does, in its event loop with an instance of it:
    # templates are checked against one (2026.2 refuses them without: "Validates schema outside
    # the event loop").
    with tempfile.TemporaryDirectory() as config_dir:
        HomeAssistant(config_dir)
        return check(sys.stdin.readlines())


sys.exit(1 if asyncio.run(main()) else 0)
