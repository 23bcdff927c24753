"""Validates Home Assistant MQTT discovery messages with Home Assistant's own schemas.

Reads lines `TOPIC PAYLOAD` (mosquitto_sub -v) on standard input; each PAYLOAD is checked with the
DISCOVERY_SCHEMA of the component in TOPIC (PREFIX/COMPONENT/NODE/OBJECT/config). A key the schema
drops (a misspelt one: the schemas remove what they do not know) counts as invalid too. Prints one
line per message; exit 0 when all are valid, 1 otherwise.
"""
import json
import sys

# First: breaks an import cycle of websocket_api and http when the mqtt component is imported alone.
import homeassistant.components.persistent_notification  # noqa: F401
from homeassistant.components.mqtt import button, event, image, number, select, sensor, switch
from homeassistant.components.mqtt.light import schema_basic

SCHEMAS = {
    "light": schema_basic.DISCOVERY_SCHEMA_BASIC,
    "select": select.DISCOVERY_SCHEMA,
    "button": button.DISCOVERY_SCHEMA,
    "switch": switch.DISCOVERY_SCHEMA,
    "sensor": sensor.DISCOVERY_SCHEMA,
    "event": event.DISCOVERY_SCHEMA,
    "image": image.DISCOVERY_SCHEMA,
    "number": number.DISCOVERY_SCHEMA,
}

bad = 0
for line in sys.stdin:
    line = line.rstrip("\n")
    if not line:
        continue
    topic, _, payload = line.partition(" ")
    component = topic.split("/")[1] if topic.count("/") >= 2 else ""
    try:
        given = json.loads(payload)
        valid = SCHEMAS[component](given)
        dropped = sorted(set(given) - set(valid))
        if dropped:
            raise ValueError("keys the schema does not know: " + ", ".join(dropped))
        print("valid", topic)
    except Exception as error:  # voluptuous's Invalid, a bad component, bad JSON
        bad += 1
        print("invalid", topic, type(error).__name__, error)
sys.exit(1 if bad else 0)
