# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Just enough of the Chrome DevTools protocol to play a page as a visitor:
open a tab, read the DOM, press keys, click, save screenshots.

Drives Debian's ``chromium`` (headless) over its websocket with aiohttp (a
test dependency). Used by tests/test_web_page.py and tests/web_shots.py.

    with Chromium() as browser:
        tab = browser.open("http://localhost:8000/")
        tab.wait("document.body.dataset.ready")
        tab.key("n"); tab.click("#take-3"); tab.key("Enter")
"""

import asyncio
import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

KEYS = {  # key -> (code, windowsVirtualKeyCode, text)
    "Enter": ("Enter", 13, "\r"),
    "Tab": ("Tab", 9, None),
    " ": ("Space", 32, " "),
    "ArrowRight": ("ArrowRight", 39, None),
    "ArrowLeft": ("ArrowLeft", 37, None),
    "ArrowUp": ("ArrowUp", 38, None),
    "ArrowDown": ("ArrowDown", 40, None),
}


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Tab:
    """One page: calls run to completion on the browser's event loop."""

    def __init__(self, browser, ws):
        self.browser = browser
        self.ws = ws
        self.n = 0

    def _run(self, coro):
        return self.browser.loop.run_until_complete(coro)

    async def _call(self, method, params):
        self.n += 1
        ident = self.n
        await self.ws.send_json({"id": ident, "method": method, "params": params})
        while True:
            message = await self.ws.receive_json(timeout=60)
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError("%s: %s" % (method, message["error"]))
                return message.get("result")

    def call(self, method, **params):
        return self._run(self._call(method, params))

    def eval(self, expression):
        """The value of a JavaScript expression (promises awaited)."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError("page error in %s: %s" % (expression, result["exceptionDetails"]))
        return result["result"].get("value")

    def wait(self, expression, limit=60):
        """Wait until the expression is truthy (readiness, never a fixed sleep); its value."""
        end = time.monotonic() + limit
        while True:
            value = self.eval(expression)
            if value:
                return value
            if time.monotonic() > end:
                raise AssertionError("page never reached: %s (last: %r)" % (expression, value))
            time.sleep(0.05)

    def key(self, key):
        if key in KEYS:
            code, vk, text = KEYS[key]
        else:  # one character: a letter, a digit, [ or ]
            code, vk, text = ("Key" + key.upper() if key.isalpha() else "Digit" + key), ord(key.upper()), key
        down = {"type": "keyDown" if text else "rawKeyDown", "key": key, "code": code, "windowsVirtualKeyCode": vk}
        if text:
            down["text"] = text
        self.call("Input.dispatchKeyEvent", **down)
        self.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=code, windowsVirtualKeyCode=vk)

    def click(self, selector):
        """A mouse click in the middle of the element, as a hand would; again
        if it missed (a re-render between finding the element and pressing
        moved it: a hand clicks again where the button now is)."""
        for _ in range(5):
            box = self.wait(
                "(() => { const e = document.querySelector(%s); if (!e) return null;"
                " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
                " window.__clicked = false;"
                " e.addEventListener('click', () => { window.__clicked = true; }, {once: true});"
                " return [r.x + r.width / 2, r.y + r.height / 2]; })()" % json.dumps(selector)
            )
            x, y = box
            for kind in ("mousePressed", "mouseReleased"):
                self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)
            end = time.monotonic() + 2
            while time.monotonic() < end:
                if self.eval("window.__clicked"):
                    return
                time.sleep(0.02)
        raise AssertionError("five clicks on %s all missed" % selector)

    def tap(self, selector):
        """A touch in the middle of the element (touch events, as on a phone)."""
        x, y = self.wait(
            "(() => { const e = document.querySelector(%s); if (!e) return null;"
            " const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"
            % json.dumps(selector)
        )
        self.call("Input.dispatchTouchEvent", type="touchStart", touchPoints=[{"x": x, "y": y}])
        self.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    def size(self, width, height, mobile=False):
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=mobile)
        if mobile:
            self.call("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=1)

    def screenshot(self, path, full=True):
        shot = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=full)
        with open(path, "wb") as f:
            f.write(base64.b64decode(shot["data"]))

    def close(self):
        self._run(self.ws.close())


class Chromium:
    """A headless chromium with its DevTools port; ``open(url)`` gives a Tab."""

    def __init__(self, width=1280, height=900):
        self.width, self.height = width, height

    def __enter__(self):
        import aiohttp

        self.loop = asyncio.new_event_loop()
        self.profile = tempfile.mkdtemp(prefix="nimatron-chromium-")
        self.port = free_port()
        self.proc = subprocess.Popen(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-background-timer-throttling",
                "--disable-renderer-backgrounding",
                "--user-data-dir=" + self.profile,
                "--remote-debugging-port=%d" % self.port,
                "--window-size=%d,%d" % (self.width, self.height),
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        self.http = self.loop.run_until_complete(self._session(aiohttp))
        self.tabs = []
        return self

    async def _session(self, aiohttp):
        return aiohttp.ClientSession()

    async def _open(self, url):
        import aiohttp

        end = time.monotonic() + 60
        while True:
            try:
                async with self.http.put("http://127.0.0.1:%d/json/new?%s" % (self.port, url)) as r:
                    target = await r.json()
                break
            except (aiohttp.ClientError, ValueError):
                if self.proc.poll() is not None or time.monotonic() > end:
                    raise RuntimeError("chromium did not start") from None
                await asyncio.sleep(0.1)
        return await self.http.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0)

    def open(self, url, width=None, height=None, mobile=False):
        tab = Tab(self, self.loop.run_until_complete(self._open("about:blank")))
        self.tabs.append(tab)
        tab.size(width or self.width, height or self.height, mobile)
        tab.call("Page.enable")
        tab.call("Page.navigate", url=url)
        tab.wait("document.readyState === 'complete'")
        return tab

    def __exit__(self, *exc):
        for tab in self.tabs:
            try:
                tab.close()
            except Exception:
                pass
        self.loop.run_until_complete(self.http.close())
        self.loop.close()
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def call(url, body=None, method=None, kind="application/json", raw=None):
    """(status, JSON answer) for an API request; an error answer is an answer
    too, and never carries a traceback."""
    import urllib.error
    import urllib.request

    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    request = urllib.request.Request(url, data=data, method=method or ("POST" if data is not None else "GET"))
    if data is not None and kind:
        request.add_header("Content-Type", kind)
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        text = e.read().decode()
        assert "Traceback" not in text
        return e.code, json.loads(text)


class Served:
    """``nimatron sim --web``'s server in this process, on a free port, in a thread.

    with Served("pico-neopixel", {"think_ms": 200}) as served:
        served.url  # http://localhost:PORT
    """

    def __init__(self, board="pico-neopixel", overrides=None, seed=None, machines=None, **machine_options):
        from nimatron_sim.web.machines import Machines

        self.machines = machines or Machines(board, overrides or {}, seed, **machine_options)

    def __enter__(self):
        import threading

        from nimatron_sim.web.server import NimatronServer

        self.server = NimatronServer(("127.0.0.1", 0), self.machines)
        self.port = self.server.server_address[1]
        self.url = "http://localhost:%d" % self.port
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(10)
        self.machines.close()
