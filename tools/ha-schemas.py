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
