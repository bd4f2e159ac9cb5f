"""The HTTP side of ``nimatron sim --web``: a page, the crowd view, a small JSON API.

Standard library only (``http.server``): the pages are static files drawn by
their own JavaScript; nothing is fetched from the internet.

    GET  /                           the play page          (?lang=es)
    GET  /crowd                      the crowd view         (?lang=ru&slow=1)
    GET  /static/NAME                the pages' CSS, JS and translations
    GET  /api/config                 boards, presets, languages, the defaults
    POST /api/machines               a new machine for this tab: {"board": ..., "preset": ...} (all optional)
    GET  /api/machines/ID            its state (lamps read back from the pins)
    POST /api/machines/ID/press      {"press": "row3" | "done" | "new" | "key 2 5" | "a" ...}
    GET  /api/crowd                  the state of the machine played last (read-only)

Bad requests get a 4xx and ``{"error": "one clear sentence"}``; a fault in
the server is a 500 with a sentence too, never a traceback on the wire.
"""

import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from ..words import languages
from .machines import MachineError

STATIC = os.path.join(os.path.dirname(__file__), "static")
TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".js": "text/javascript; charset=utf-8", ".json": "application/json; charset=utf-8",
         ".svg": "image/svg+xml"}
PAGES = {"/": "play.html", "/index.html": "play.html", "/crowd": "crowd.html"}
MAX_BODY = 16 * 1024
SETTING_KEYS = ("preset", "rules", "misere", "difficulty", "first")


def static_files():
    """name -> path for every file the server may send (nothing else is reachable)."""
    out = {}
    for folder, _, files in os.walk(STATIC):
        for name in files:
            path = os.path.join(folder, name)
            out[os.path.relpath(path, STATIC).replace(os.sep, "/")] = path
    return out


class RequestError(Exception):
    def __init__(self, status, message):
        Exception.__init__(self, message)
        self.status = status


class Handler(BaseHTTPRequestHandler):
    server_version = "Nimatron"
    protocol_version = "HTTP/1.1"

    # -- plumbing --------------------------------------------------------------
    def log_message(self, format, *args):  # the pages poll: no line per request
        pass

    def _send(self, status, body, kind):
        data = body if isinstance(body, bytes) else body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _json(self, status, data):
        self._send(status, json.dumps(data, separators=(",", ":")), TYPES[".json"])

    def _error(self, status, message):
        self._json(status, {"error": message})

    def _body(self):
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise RequestError(400, "Content-Length is not a number")
        if length > MAX_BODY:
            raise RequestError(413, "the body is %d bytes; at most %d" % (length, MAX_BODY))
        raw = self.rfile.read(length) if length > 0 else b""
        if not raw.strip():
            return {}
        if kind != "application/json":
            raise RequestError(415, "send the body as application/json, not %r" % (kind or "nothing"))
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            raise RequestError(400, "the body is not JSON: %s" % e)
        if not isinstance(body, dict):
            raise RequestError(400, "the body must be a JSON object, like {\"press\": \"done\"}")
        return body

    def _route(self, method):
        path = urlsplit(self.path).path
        try:
            if method == "POST":
                self._post(path)
            else:
                self._get(path)
        except RequestError as e:
            self._error(e.status, str(e))
        except MachineError as e:
            self._error(e.status, str(e))
        except (BrokenPipeError, ConnectionResetError):
            pass  # the tab went away mid-answer
        except Exception as e:  # a fault of ours: one line in the log, a sentence on the wire
            print("nimatron sim --web: %s %s: %s: %s" % (method, path, type(e).__name__, e), file=sys.stderr)
            self._error(500, "the server failed to answer (%s); the machine is unchanged" % type(e).__name__)

    def do_GET(self):
        self._route("GET")

    def do_HEAD(self):
        self._route("GET")

    def do_POST(self):
        self._route("POST")

    # -- routes ---------------------------------------------------------------------
    def _get(self, path):
        machines = self.server.machines
        if path in PAGES:
            return self._file(PAGES[path])
        if path.startswith("/static/"):
            return self._file(path[len("/static/"):])
        if path == "/api/config":
            return self._json(200, self.server.config())
        if path == "/api/crowd":
            return self._json(200, machines.crowd())
        parts = path.strip("/").split("/")
        if len(parts) == 3 and parts[:2] == ["api", "machines"]:
            return self._json(200, machines.state(parts[2]))
        if path.startswith("/api/"):
            raise RequestError(404, "no such API: GET %s" % path)
        raise RequestError(404, "no page %s here: try / (play) or /crowd (the crowd view)" % path)

    def _post(self, path):
        machines = self.server.machines
        parts = path.strip("/").split("/")
        if parts == ["api", "machines"]:
            body = self._body()
            board, overrides = self.server.settings_from(body)
            machine = machines.create(board, overrides)
            with_state = machines.state(machine.id)
            return self._json(201, with_state)
        if len(parts) == 4 and parts[:2] == ["api", "machines"] and parts[3] == "press":
            body = self._body()
            if set(body) != {"press"}:
                raise RequestError(400, "send {\"press\": BUTTON}, e.g. {\"press\": \"done\"}; got keys %s"
                                   % (sorted(body) or "none"))
            return self._json(200, machines.press(parts[2], body["press"]))
        if path in PAGES or path.startswith("/static/") or path in ("/api/config", "/api/crowd"):
            raise RequestError(405, "%s is read-only: GET it" % path)
        raise RequestError(404, "no such API: POST %s" % path)

    def _file(self, name):
        files = self.server.files
        if name not in files:
            raise RequestError(404, "no file %s here" % name)
        with open(files[name], "rb") as f:
            data = f.read()
        self._send(200, data, TYPES.get(os.path.splitext(name)[1], "application/octet-stream"))


class NimatronServer(ThreadingHTTPServer):
    """The server and what its handlers share: the machines and the defaults."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address, machines, *, lang="en"):
        self.machines = machines
        self.lang = lang
        self.files = static_files()
        ThreadingHTTPServer.__init__(self, address, Handler)

    def config(self):
        from nimatron.config import boards, settings

        m = self.machines
        return {
            "lang": self.lang,
            "langs": languages(),
            "board": m.board,
            "settings": {k: m.overrides[k] for k in SETTING_KEYS if k in m.overrides},
            "boards": [{"name": n, "about": boards.board(n)["about"]} for n in boards.names()],
            "presets": [{"name": n, "about": settings.PRESETS[n].get("about", "")} for n in settings.PRESETS],
            "rules": ["nim", "subtract:3", "subtract:10", "moore:2", "greedy", "allheaps", "grundy",
                      "circular", "candy", "nim2d"],
            "difficulties": list(settings.DIFFICULTIES),
            "first": list(settings.FIRST),
        }

    def settings_from(self, body):
        """(board, overrides) for a tab's own machine: the server's, with the
        page's choices over them (on another board, the page's choices
        only: the server's were made for its board). Unknown keys are
        refused, not ignored."""
        from nimatron.config import boards

        unknown = sorted(set(body) - set(SETTING_KEYS) - {"board"})
        if unknown:
            raise RequestError(400, "unknown setting %s; a page may choose: board, %s" % (
                ", ".join(unknown), ", ".join(SETTING_KEYS)))
        board = body.get("board", self.machines.board)
        if not isinstance(board, str) or board not in boards.names():
            raise RequestError(400, "unknown board %r; boards: %s" % (board, ", ".join(boards.names())))
        overrides = dict(self.machines.overrides)
        if board != self.machines.board:
            for key in SETTING_KEYS:
                overrides.pop(key, None)
        for key in SETTING_KEYS:
            if key in body:
                value = body[key]
                overrides.pop(key, None)
                if key == "misere":
                    if not isinstance(value, bool):
                        raise RequestError(400, "misere must be true or false, got %r" % (value,))
                    overrides[key] = value
                elif value not in (None, ""):
                    if not isinstance(value, str):
                        raise RequestError(400, "%s must be a word, got %r" % (key, value))
                    overrides[key] = value
        return board, overrides
