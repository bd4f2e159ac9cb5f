"""``nimatron sim --web``: served on localhost, answers HTTP, stops cleanly;
a port in use is one line; headless Chromium sees the lamps and plays.

The browser test drives Debian's ``chromium`` over the DevTools protocol
(a websocket, through aiohttp, which textual-serve already needs): it loads
the page, watches the terminal bytes the page receives over its own
websocket, and types keys into the terminal as a visitor would.
"""

import asyncio
import base64
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest

from nimatron_sim.web import port_problem

NIMATRON = [sys.executable, "-m", "nimatron_host"]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(url, timeout=2):
    import urllib.request

    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.status, response.read().decode("utf-8", "replace")


def wait_for_http(url, proc, limit=20):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        assert proc.poll() is None, proc.communicate()
        try:
            return get(url)
        except OSError:
            time.sleep(0.1)
    raise AssertionError("no answer from %s" % url)


def group_gone(pgid, limit=10):
    """True once no process is left in the server's process group."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


@pytest.fixture
def server():
    """``nimatron sim --web`` on a free port, in its own process group."""
    started = []

    def start(*extra):
        port = free_port()
        proc = subprocess.Popen(NIMATRON + ["sim", "--web", "--port", str(port)] + list(extra),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        started.append(proc)
        return proc, port

    yield start
    for proc in started:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


# -- the port ---------------------------------------------------------------------

def test_port_problem_names_a_port_in_use_and_a_bad_number():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        assert "port %d on localhost is in use" % port in port_problem(port)
    assert port_problem(free_port()) is None
    assert "between 1 and 65535" in port_problem(70000)


def test_web_on_a_port_in_use_is_one_line_exit_2_before_starting():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        t = time.monotonic()
        done = subprocess.run(NIMATRON + ["sim", "--web", "--port", str(port)],
                              capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "is in use" in done.stderr and "--port" in done.stderr
    assert done.stdout == ""
    assert time.monotonic() - t < 15


def test_web_with_bad_settings_is_one_line_exit_2():
    done = subprocess.run(NIMATRON + ["sim", "--web", "--port", str(free_port()), "--board", "abacus"],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "unknown board" in done.stderr


# -- serving ----------------------------------------------------------------------

@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_web_serves_the_page_on_localhost_and_stops_cleanly(server, stop):
    proc, port = server("--preset", "drnim")
    status, page = wait_for_http("http://localhost:%d/" % port, proc)
    assert status == 200
    assert "<title>" in page or "Nimatron" in page
    assert "ws://localhost:%d/ws" % port in page
    status, script = get("http://localhost:%d/static/js/textual.js" % port)
    assert status == 200 and len(script) > 10000
    proc.send_signal(stop)
    out, err = proc.communicate(timeout=15)
    assert proc.returncode == 0, err
    assert "Traceback" not in err.decode()
    assert b"http://localhost:%d" % port in out
    assert group_gone(proc.pid)


def test_app_command_repeats_the_options_for_each_browser_tab():
    from argparse import Namespace

    from nimatron_sim.web import app_command

    args = Namespace(board="pico-grid", preset="grundy", rules=None, difficulty="teach", first="machine",
                     seed=7, misere=True, thinking=True, set=["think_ms=0"])
    command = app_command(args)
    assert command.startswith(sys.executable)
    for part in ("-m nimatron_host sim --board pico-grid", "--preset grundy", "--difficulty teach",
                 "--first machine", "--seed 7", "--misere", "--thinking", "--set think_ms=0"):
        assert part in command
    assert "--web" not in command and "--port" not in command


# -- a real browser ------------------------------------------------------------------

class DevTools:
    """Just enough of the Chrome DevTools protocol: calls, and the terminal
    bytes the page receives on its websocket."""

    def __init__(self, ws):
        self.ws = ws
        self.n = 0
        self.screen = ""   # everything the page's terminal has been sent

    def _take(self, message):
        if message.get("method") == "Network.webSocketFrameReceived":
            frame = message["params"]["response"]
            data = frame["payloadData"]
            if frame.get("opcode") == 2:
                data = base64.b64decode(data).decode("utf-8", "replace")
            self.screen += data

    async def call(self, method, **params):
        self.n += 1
        ident = self.n
        await self.ws.send_json({"id": ident, "method": method, "params": params})
        while True:
            message = await self.ws.receive_json(timeout=30)
            self._take(message)
            if message.get("id") == ident:
                assert "error" not in message, message
                return message.get("result")

    async def watch(self, seconds, until=None):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if until and until(self.screen):
                return True
            try:
                message = await self.ws.receive_json(timeout=max(0.05, end - time.monotonic()))
            except asyncio.TimeoutError:
                break
            self._take(message)
        return bool(until and until(self.screen))

    async def key(self, key, text=None, code=None):
        extra = {"code": code, "windowsVirtualKeyCode": 13} if code else {}
        await self.call("Input.dispatchKeyEvent", type="keyDown", key=key, text=text or key, **extra)
        await self.call("Input.dispatchKeyEvent", type="keyUp", key=key, **extra)


@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium package (apt-get install -y chromium)")
def test_headless_chromium_sees_the_lamps_and_plays(server, tmp_path):
    import aiohttp

    proc, port = server()
    wait_for_http("http://localhost:%d/" % port, proc)
    debug_port = free_port()
    profile = tempfile.mkdtemp(dir=tmp_path)
    chrome = subprocess.Popen(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--user-data-dir=" + profile, "--remote-debugging-port=%d" % debug_port,
         "--window-size=1280,900", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    async def visit():
        async with aiohttp.ClientSession() as http:
            end = time.monotonic() + 30
            while True:
                try:
                    async with http.get("http://127.0.0.1:%d/json/list" % debug_port) as r:
                        pages = [t for t in await r.json() if t["type"] == "page"]
                    if pages:
                        break
                except aiohttp.ClientError:
                    pass
                assert time.monotonic() < end, "chromium did not start"
                await asyncio.sleep(0.1)
            async with http.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                tools = DevTools(ws)
                await tools.call("Network.enable")
                await tools.call("Page.enable")
                await tools.call("Page.navigate", url="http://localhost:%d/" % port)
                # the machine's face arrives: status lamps, the rows and their buttons
                assert await tools.watch(30, lambda s: "YOUR TURN" in s and "4 TAKE" in s and "·" in s)
                shown = await tools.call("Runtime.evaluate", expression="document.body.className")
                assert "-first-byte" in shown["result"]["value"]        # the terminal has drawn
                await tools.call("Runtime.evaluate",
                                 expression="document.querySelector('.xterm-helper-textarea').focus()")
                await tools.key("n")
                assert await tools.watch(10, lambda s: "Your turn" in s and "●" in s)
                await tools.key("4")
                await tools.key("Enter", text="\r", code="Enter")
                assert await tools.watch(10, lambda s: "○" in s and "You: take 1 from heap D" in s)
                assert await tools.watch(10, lambda s: "MACHINE THINKING" in s and "Machine: take" in s)
                shot = await tools.call("Page.captureScreenshot", format="png")
                (tmp_path / "web.png").write_bytes(base64.b64decode(shot["data"]))

    try:
        asyncio.run(asyncio.wait_for(visit(), 90))
        # Ctrl-C with the tab still open: the server ends the session and stops
        t = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err
        assert time.monotonic() - t < 15
        assert group_gone(proc.pid), "an app process outlived the server"
    finally:
        chrome.terminate()
        try:
            chrome.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(chrome.pid, signal.SIGKILL)
            chrome.wait()
