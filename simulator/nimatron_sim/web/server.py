# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The HTTP side of ``nimatron sim --web``: a page, the crowd view, a small JSON API.

Standard library only (``http.server``): the pages are static files drawn by
their own JavaScript; nothing is fetched from the internet.

    GET  /                           the play page          (?lang=es)
    GET  /crowd                      the crowd view         (?lang=ru&slow=1)
    GET  /static/NAME                the pages' CSS, JS and translations
    GET  /api/config                 boards, presets, languages, the defaults
    POST /api/machines               a new machine for this tab: {"board": ..., "preset": ...} (all optional;
                                     "replaces": the tab's old ID, closed at once: settings applied)
    GET  /api/machines/ID            its state (lamps read back from the pins)
    POST /api/machines/ID/press      {"press": "row3" | "done" | "new" | "key 2 5" | "a" ...}
    GET  /api/crowd                  the state of the machine played last, with its watch handle, never its ID
    GET  /api/watch/HANDLE           a machine's state by its watch handle (read-only)

Who may do what: a machine's ID is its tab's secret (only the answer to the
tab that made it carries it); watchers get a separate handle that presses
nothing. Every request must name this server in ``Host`` (localhost, or the
``--host`` address: a page on another site that rebinds its own name to this
address is refused); every POST must be JSON and, when the browser says
where it comes from (``Origin``), come from this server's own pages, so no
other site's page or form can make or press machines.

Bad requests get a 4xx and ``{"error": "one clear sentence"}``, whatever the
status (a bad request line, an unknown method too); a fault in the server is
a 500 with a sentence, never a traceback on the wire or in the log. A client
that stops sending is dropped after ``client_timeout`` seconds; at most
``MAX_CLIENTS`` connections are served at once (more get a 503 at once).
"""

import ipaddress
import json
import os
import socket
import sys
import threading
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
CLIENT_TIMEOUT_S = 10  # a client silent this long mid-request (or idle on keep-alive) is dropped
MAX_CLIENTS = 512      # connections served at once (a thread each); the next ones get a 503 straight away
BACKLOG = 128          # connections the kernel queues before the server takes them
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")
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


def split_host(value):
    """(name, port or None) from a ``Host`` header; (None, None) if malformed."""
    value = (value or "").strip().lower()
    if value.startswith("["):
        if "]" not in value:
            return None, None
        name, _, rest = value[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else None
        if rest and port is None:
            return None, None
    else:
        name, _, port = value.partition(":")
        port = port or None
    if not name or (port is not None and not port.isdigit()):
        return None, None
    return name, int(port) if port else None


def is_address(name):
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


class Handler(BaseHTTPRequestHandler):
    server_version = "Nimatron"
    protocol_version = "HTTP/1.1"

    # -- plumbing --------------------------------------------------------------
    def setup(self):
        self.timeout = self.server.client_timeout  # socket timeout: a silent client is let go
        BaseHTTPRequestHandler.setup(self)
        try:  # headers and body go in two writes: without this, Nagle + delayed ACK add 40 ms
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass

    def log_message(self, format, *args):  # the pages poll: no line per request
        pass

    def send_error(self, code, message=None, explain=None):
        """http.server's own errors (a bad request line, an unknown method,
        a line too long) in JSON, like every other answer."""
        words = {400: "the request is not HTTP this server understands", 414: "the address is too long",
                 431: "the headers are too long", 501: "this server answers GET, HEAD and POST only"}
        self.close_connection = True
        try:
            self._error(code, message if message and code not in words else words.get(code, message or "refused"))
        except OSError:
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
        if self.headers.get("Transfer-Encoding"):
            raise RequestError(411, "send the body with a Content-Length, not %s" % self.headers["Transfer-Encoding"])
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise RequestError(400, "Content-Length is not a number")
        if length < 0:
            raise RequestError(400, "Content-Length is negative")
        if length > MAX_BODY:
            raise RequestError(413, "the body is %d bytes; at most %d" % (length, MAX_BODY))
        # JSON only, even empty: a form on another site cannot send it without asking first
        if kind != "application/json":
            raise RequestError(415, "send the body as application/json, not %r" % (kind or "nothing"))
        raw = self.rfile.read(length) if length > 0 else b""
        if not raw.strip():
            return {}
        if nesting(raw) > MAX_NESTING:
            raise RequestError(400, "the body is not JSON this server reads: nested too deep")
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            raise RequestError(400, "the body is not JSON: %s" % e)
        except RecursionError:
            raise RequestError(400, "the body is not JSON this server reads: nested too deep")
        if not isinstance(body, dict):
            raise RequestError(400, "the body must be a JSON object, like {\"press\": \"done\"}")
        return body

    def _check_sender(self, method):
        """Refuse a request that does not name this server, or a POST another site's page sent."""
        host = self.headers.get("Host")
        name, port = split_host(host)
        if name is None or not self.server.serves(name, port):
            raise RequestError(403, "this server answers to %s, not to %r" % (self.server.names(), host))
        origin = self.headers.get("Origin")
        if method == "POST" and origin is not None and origin.lower().rstrip("/") != "http://" + host.strip().lower():
            raise RequestError(403, "a page from %s may not change machines here; use this server's own page"
                               % origin)

    def _route(self, method):
        path = urlsplit(self.path).path
        try:
            self._check_sender(method)
            if method == "POST":
                self._post(path)
            else:
                self._get(path)
        except RequestError as e:
            self.close_connection = self.close_connection or e.status in (400, 411, 413, 415)
            self._error(e.status, str(e))
        except MachineError as e:
            self._error(e.status, str(e))
        except (BrokenPipeError, ConnectionResetError, TimeoutError, socket.timeout):
            self.close_connection = True  # the tab went away, or stopped sending: let it go
        except Exception as e:  # a fault of ours: one line in the log, a sentence on the wire
            print("nimatron sim --web: %s %s: %s: %s" % (method, path, type(e).__name__, e), file=sys.stderr)
            self._error(500, "the server failed to answer (%s); the machine is unchanged" % type(e).__name__)

    def do_GET(self):
        self._route("GET")

    def do_HEAD(self):
        self._route("GET")

    def do_POST(self):
        self._route("POST")

    def _not_allowed(self):
        self._error(405, "%s is not answered here: GET the pages and state, POST presses" % self.command)

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _not_allowed

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
        if path.startswith("/api/watch/") and path.count("/") == 3:
            return self._json(200, machines.watch(path[len("/api/watch/"):]))
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
            replaces = body.pop("replaces", None)
            board, overrides = self.server.settings_from(body)
            machine = machines.create(board, overrides, replaces=replaces)
            with_state = machines.state(machine.id)
            return self._json(201, with_state)
        if len(parts) == 4 and parts[:2] == ["api", "machines"] and parts[3] == "press":
            body = self._body()
            if set(body) != {"press"}:
                raise RequestError(400, "send {\"press\": BUTTON}, e.g. {\"press\": \"done\"}; got keys %s"
                                   % (sorted(body) or "none"))
            return self._json(200, machines.press(parts[2], body["press"]))
        if path in PAGES or path.startswith("/static/") or path in ("/api/config", "/api/crowd") or \
                path.startswith("/api/watch/"):
            raise RequestError(405, "%s is read-only: GET it" % path)
        raise RequestError(404, "no such API: POST %s" % path)

    def _file(self, name):
        files = self.server.files
        if name not in files:
            raise RequestError(404, "no file %s here" % name)
        with open(files[name], "rb") as f:
            data = f.read()
        self._send(200, data, TYPES.get(os.path.splitext(name)[1], "application/octet-stream"))


MAX_NESTING = 32   # a request body is a flat object: nothing this server reads nests deeper


def nesting(raw):
    """How deep the brackets of a JSON text go, strings left out. Checked
    before parsing: the parser's own guard is the interpreter's recursion
    limit, which another library in the process may have raised (mypy sets
    it to 16384), and 8,000 nested brackets then parse, or overflow the C stack."""
    depth = most = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:        # backslash
                escaped = True
            elif byte == 0x22:        # closing quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):    # [ {
            depth += 1
            most = max(most, depth)
        elif byte in (0x5D, 0x7D):    # ] }
            depth -= 1
    return most


class Slot:
    """One client's place among ``max_clients``: freed once, whoever frees it first."""

    def __init__(self, places):
        self.places = places
        self.lock = threading.Lock()
        self.held = True

    def free(self):
        with self.lock:
            if self.held:
                self.held = False
                self.places.release()


class NimatronServer(ThreadingHTTPServer):
    """The server and what its handlers share: the machines and the defaults.

    ``host``: the name it was asked to serve (``--host``); requests must name
    it, or localhost. On a wildcard address (``0.0.0.0``, a classroom's LAN)
    any IP address and this computer's own names are accepted, never another
    domain name (DNS rebinding)."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = BACKLOG

    def __init__(self, address, machines, *, lang="en", host="localhost", client_timeout=CLIENT_TIMEOUT_S,
                 max_clients=MAX_CLIENTS):
        self.machines = machines
        self.lang = lang
        self.files = static_files()
        self.client_timeout = client_timeout
        self.clients = threading.BoundedSemaphore(max_clients)
        host = (host or "localhost").lower().strip("[]")
        self.wildcard = host in ("0.0.0.0", "::", "")
        self.hosts = set(LOCAL_NAMES)
        if self.wildcard:
            for name in (socket.gethostname(), socket.getfqdn()):
                self.hosts.update((name.lower(), name.lower() + ".local"))
        else:
            self.hosts.add(host)
        ThreadingHTTPServer.__init__(self, address, Handler)

    def serves(self, name, port):
        """Does a request for ``name:port`` mean this server?"""
        if port is not None and port != self.server_address[1]:
            return False
        return name in self.hosts or (self.wildcard and is_address(name))

    def names(self):
        return " or ".join(sorted(self.hosts)) + (" or this computer's addresses" if self.wildcard else "")

    def process_request(self, request, client_address):
        """A thread per connection, at most ``max_clients`` at once: beyond
        that, a 503 in one line and the connection closed."""
        if not self.clients.acquire(blocking=False):
            body = b'{"error":"this server is busy; try again in a moment"}'
            try:
                request.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                                b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
            except OSError:
                pass
            self.shutdown_request(request)
            return
        slot = Slot(self.clients)
        thread = threading.Thread(target=self._serve_one, args=(request, client_address, slot), daemon=True)
        try:
            thread.start()
        except BaseException:
            # Ctrl-C (or SIGTERM) can land inside start(), after the thread
            # has run and freed its slot: freeing it twice raised ValueError,
            # which the accept loop swallowed together with the Ctrl-C, and
            # the server never stopped. A slot is freed once, by whoever is first.
            slot.free()
            raise

    def _serve_one(self, request, client_address, slot):
        try:
            ThreadingHTTPServer.process_request_thread(self, request, client_address)
        finally:
            slot.free()

    def handle_error(self, request, client_address):
        """A client that hangs up or goes silent is normal: not a word; anything else, one line."""
        kind, error = sys.exc_info()[:2]
        if isinstance(error, (ConnectionError, TimeoutError, socket.timeout)):
            return
        print("nimatron sim --web: %s from %s: %s" % (getattr(kind, "__name__", kind), client_address[0], error),
              file=sys.stderr)

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
