"""Prints the pip requirements of Home Assistant integrations and of what they depend on.

    python tools/ha-requirements.py [--bootstrap] DOMAIN...

One requirement a line, from each integration's manifest.json in the installed homeassistant
package, following the manifests' `dependencies`; with --bootstrap also of the integrations
Home Assistant's bootstrap sets up whatever the configuration says (its CORE_INTEGRATIONS and,
from 2024.x, DEFAULT_INTEGRATIONS: the frontend among them, without which it starts in recovery
mode and loads no config entry). What `hass --skip-pip` needs installed to set those up (the
homeassistant package itself installs only the core's). Run by the venv's python.
"""
import json
import os
import sys

import homeassistant

arguments = sys.argv[1:]
todo = [a for a in arguments if not a.startswith("--")]
if "--bootstrap" in arguments:
    from homeassistant import bootstrap

    for name in ("CORE_INTEGRATIONS", "DEFAULT_INTEGRATIONS"):
        todo += sorted(getattr(bootstrap, name, set()))
components = os.path.join(os.path.dirname(homeassistant.__file__), "components")
seen, requirements = set(), []
while todo:
    domain = todo.pop()
    if domain in seen:
        continue
    seen.add(domain)
    with open(os.path.join(components, domain, "manifest.json"), encoding="utf-8") as file:
        manifest = json.load(file)
    requirements += [r for r in manifest.get("requirements", []) if r not in requirements]
    todo += manifest.get("dependencies", [])
print("\n".join(requirements))
