"""Home Assistant core, started for real in this process and driven by lines on standard input.

    python tools/ha-core.py CONFIGDIR BROKER_PORT

Writes CONFIGDIR's configuration -- a minimal configuration.yaml (HTTP on 127.0.0.1 and a free
port), the MQTT integration's config entry in .storage/core.config_entries (broker
127.0.0.1:BROKER_PORT, discovery on) -- and starts Home Assistant there with its own bootstrap,
as `hass --skip-pip -c CONFIGDIR` would (the packages installed: tools/ha-requirements.py
--bootstrap mqtt).
Once it runs and its MQTT integration is connected it says, on standard output,

    {"ready": true, "version": "2024.1.6", "python": "3.11.7"}

(or {"ready": false, "error": WHY} and ends), then answers each request line with one line,
{"ok": true, ...} or {"ok": false, "error": WHY}:

    {"op": "device", "identifier": ID}   the device whose identifiers hold ID, and its entities:
                                         entity_id, unique_id, platform, original_name, state
    {"op": "call", "domain": D, "service": S, "data": {...}}
                                         calls the service and waits for it (blocking)
    {"op": "state", "entity_id": E}      the entity's state and attributes
    {"op": "log"}                        every record logged at WARNING or above since the start:
                                         level, logger, message
    {"op": "stop"}                       stops Home Assistant, answers, ends (also at the end of
                                         standard input)

Standard error: Home Assistant's log (also CONFIGDIR/home-assistant.log).
"""
import asyncio
import json
import logging
import os
import socket
import sys
import threading
import traceback
import uuid

config_dir, broker_port = os.path.abspath(sys.argv[1]), int(sys.argv[2])

# Standard output is the protocol's: anything else that prints goes to standard error.
protocol = os.fdopen(os.dup(1), "w", buffering=1)
os.dup2(2, 1)


def say(message):
    protocol.write(json.dumps(message, default=str) + "\n")


class Collect(logging.Handler):
    """Every record at WARNING or above (a handler on the root logger before Home Assistant's
    bootstrap: it keeps it, behind its log queue)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []
        self.guard = threading.Lock()

    def emit(self, record):
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not fit its format
            message = str(record.msg)
        if record.exc_info and record.exc_info[1] is not None:
            message += " (" + type(record.exc_info[1]).__name__ + ": " + str(record.exc_info[1]) + ")"
        with self.guard:
            self.records.append({"level": record.levelname, "logger": record.name, "message": message})


collected = Collect()
logging.root.addHandler(collected)
console = logging.StreamHandler(sys.stderr)
console.setFormatter(logging.Formatter("%(asctime)s %(levelname)s [%(name)s] %(message)s"))
logging.root.addHandler(console)
logging.root.setLevel(logging.INFO)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_configuration():
    os.makedirs(os.path.join(config_dir, ".storage"), exist_ok=True)
    with open(os.path.join(config_dir, "configuration.yaml"), "w", encoding="utf-8") as file:
        file.write(
            "homeassistant:\n  name: Glance test\n  latitude: 52.37\n  longitude: 4.89\n  elevation: 0\n"
            "  unit_system: metric\n  time_zone: UTC\n  currency: EUR\n  country: NL\n  language: en\n"
            f"http:\n  server_host: 127.0.0.1\n  server_port: {free_port()}\n"
        )
    entry = {
        "entry_id": uuid.uuid4().hex,
        "version": 1,
        "minor_version": 1,
        "domain": "mqtt",
        "title": f"127.0.0.1:{broker_port}",
        "data": {"broker": "127.0.0.1", "port": broker_port, "discovery": True, "discovery_prefix": "homeassistant"},
        "options": {},
        "pref_disable_new_entities": False,
        "pref_disable_polling": False,
        "source": "user",
        "unique_id": None,
        "disabled_by": None,
    }
    storage = {"version": 1, "minor_version": 1, "key": "core.config_entries", "data": {"entries": [entry]}}
    with open(os.path.join(config_dir, ".storage", "core.config_entries"), "w", encoding="utf-8") as file:
        json.dump(storage, file)


def jsonable(value):
    return json.loads(json.dumps(value, default=str))


async def answer(hass, request):
    from homeassistant.helpers import device_registry as dr
    from homeassistant.helpers import entity_registry as er

    op = request.get("op")
    if op == "device":
        devices = dr.async_get(hass)
        device = next((d for d in devices.devices.values() if any(i[1] == request["identifier"] for i in d.identifiers)), None)
        if device is None:
            return {"ok": True, "device": None, "entities": []}
        entities = []
        for e in er.async_entries_for_device(er.async_get(hass), device.id, include_disabled_entities=True):
            state = hass.states.get(e.entity_id)
            entities.append({
                "entity_id": e.entity_id, "unique_id": e.unique_id, "platform": e.platform,
                "original_name": e.original_name, "has_entity_name": e.has_entity_name,
                "disabled_by": str(e.disabled_by) if e.disabled_by else None,
                "state": state.state if state else None,
            })
        return {"ok": True, "device": {
            "name": device.name, "name_by_user": device.name_by_user, "manufacturer": device.manufacturer,
            "model": device.model, "sw_version": device.sw_version,
            "identifiers": sorted(list(i) for i in device.identifiers),
        }, "entities": sorted(entities, key=lambda e: e["entity_id"])}
    if op == "call":
        await hass.services.async_call(request["domain"], request["service"], request.get("data") or {}, blocking=True)
        return {"ok": True}
    if op == "state":
        state = hass.states.get(request["entity_id"])
        if state is None:
            return {"ok": True, "state": None}
        return {"ok": True, "state": state.state, "attributes": jsonable(dict(state.attributes))}
    if op == "log":
        with collected.guard:
            return {"ok": True, "records": list(collected.records)}
    return {"ok": False, "error": f"unknown op {op!r}"}


async def main():
    from homeassistant import bootstrap
    from homeassistant.const import __version__
    from homeassistant.runner import RuntimeConfig

    write_configuration()
    loop = asyncio.get_running_loop()
    requests = asyncio.Queue()

    def read():
        for line in sys.stdin:
            loop.call_soon_threadsafe(requests.put_nowait, line)
        loop.call_soon_threadsafe(requests.put_nowait, None)

    threading.Thread(target=read, daemon=True).start()

    hass = await bootstrap.async_setup_hass(
        RuntimeConfig(config_dir=config_dir, skip_pip=True, log_file=os.path.join(config_dir, "home-assistant.log"))
    )
    if hass is None:
        say({"ready": False, "error": "Home Assistant's bootstrap failed (see its log)"})
        return 1
    await hass.async_start()
    # Ready once the MQTT integration's client is connected to the broker.
    for _ in range(1200):
        mqtt = hass.data.get("mqtt")
        client = getattr(mqtt, "client", None)
        if client is not None and getattr(client, "connected", False):
            break
        await asyncio.sleep(0.1)
    else:
        say({"ready": False, "error": f"the MQTT integration did not connect to 127.0.0.1:{broker_port} within 120 s"})
        await hass.async_stop()
        return 1
    say({"ready": True, "version": __version__, "python": sys.version.split()[0]})

    while True:
        line = await requests.get()
        if line is None:
            break
        line = line.strip()
        if not line:
            continue
        try:
            request = json.loads(line)
            if request.get("op") == "stop":
                break
            reply = await answer(hass, request)
        except Exception as error:  # a request that failed: said, the next one is taken
            traceback.print_exc()
            reply = {"ok": False, "error": f"{type(error).__name__}: {error}"}
        say(reply)
    await hass.async_stop()
    say({"ok": True, "stopped": True})
    return 0


sys.exit(asyncio.run(main()))
