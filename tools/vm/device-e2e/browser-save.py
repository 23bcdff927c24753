#!/usr/bin/env python3
"""browser-save.py -- the host's browser on the booted panel's page (Tests/VMTests/DeviceBootTests):
Debian's Chromium, headless, driven through its chromedriver (W3C WebDriver, Python's standard
library only). Signs in with the one-time link whose secret the guest's `web` step printed in
CONSOLE, types NAME into the settings' form and saves it, then shows the ring screen with the
page's control. Writes, in the current folder: web-login.out, web-save.out, web-show.out (the
page's URL after each), web-saved.html (the settings page after the save) and web-settings.png
(its picture), web-goals.out (the goals page after saving the goals as they were).
Every command within 30 s; chromedriver and its browser ended on every path.

    browser-save.py BASE CONSOLE NAME
"""
import base64
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Driver:
    def __init__(self):
        self.port = free_port()
        self.profile = tempfile.mkdtemp(prefix="glance-vm-browser-")
        self.process = subprocess.Popen(
            ["/usr/bin/chromedriver", f"--port={self.port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        end = time.monotonic() + 20
        while True:
            try:
                if self.call("GET", "/status")["ready"]:
                    break
            except OSError:
                pass
            if time.monotonic() > end:
                raise RuntimeError("chromedriver did not start within 20 s")
            time.sleep(0.1)
        options = {"binary": "/usr/bin/chromium", "args": [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            f"--user-data-dir={self.profile}", "--window-size=1280,900"]}
        answer = self.call("POST", "/session", {"capabilities": {"alwaysMatch": {"goog:chromeOptions": options}}})
        self.session = "/session/" + answer["sessionId"]

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as r:
                return json.load(r)["value"]
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"{method} {path}: {e.read().decode(errors='replace')[:300]}")

    def go(self, url):
        self.call("POST", self.session + "/url", {"url": url})

    def url(self):
        return self.call("GET", self.session + "/url")

    def find(self, selector):
        return self.call("POST", self.session + "/element", {"using": "css selector", "value": selector})[ELEMENT]

    def click(self, selector):
        self.call("POST", self.session + f"/element/{self.find(selector)}/click", {})

    def type(self, selector, text):
        element = self.find(selector)
        self.call("POST", self.session + f"/element/{element}/clear", {})
        self.call("POST", self.session + f"/element/{element}/value", {"text": text})

    def press(self, selector):
        """Clicks a form's button and waits until the page it leads to has replaced this one."""
        old = self.find("html")
        self.click(selector)
        end = time.monotonic() + 30
        while time.monotonic() < end:
            try:
                self.call("GET", self.session + f"/element/{old}/name")
            except RuntimeError:
                return
            time.sleep(0.05)
        raise RuntimeError(f"no new page after {selector}")

    def close(self):
        try:
            self.call("DELETE", self.session)
        except Exception:
            pass
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def out_of_time(signum, frame):
    raise TimeoutError("browser-save.py: not done within 100 s")


def main():
    # Within the harness's 120 s for the command, so the browser is always closed here.
    signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(100)
    base, console, name = sys.argv[1:4]
    text = open(console, errors="replace").read()
    found = re.findall(r"STEP web active=.*login\?t=([A-Za-z0-9_-]+)", text)
    if not found:
        print("no link in the guest's web step")
        return 1
    driver = Driver()
    try:
        driver.go(f"{base}/login?t={found[-1]}")
        open("web-login.out", "w").write(driver.url() + "\n")
        driver.go(f"{base}/settings")
        driver.type("#f-name", name)
        driver.press("button[value=save]")
        open("web-save.out", "w").write(driver.url() + "\n")
        open("web-saved.html", "w").write(driver.call("GET", driver.session + "/source"))
        open("web-settings.png", "wb").write(base64.b64decode(driver.call("GET", driver.session + "/screenshot")))
        driver.go(f"{base}/")
        driver.click("select#screen option[value=rings]")
        driver.press("button[value=show]")
        open("web-show.out", "w").write(driver.url() + "\n")
        # The goals from today, as they are (the picture stays): the store written from the page.
        driver.go(f"{base}/goals")
        move = driver.call("GET", driver.session + f"/element/{driver.find('#g-move')}/property/value")
        driver.type("#g-move", move)
        driver.press("button[value=save]")
        saved = "Saved" in driver.call("GET", driver.session + "/source") or "已保存" in driver.call("GET", driver.session + "/source")
        open("web-goals.out", "w").write(driver.url() + "\n" + ("saved" if saved else "not saved") + f" move={move}\n")
    finally:
        driver.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
