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
    POST /api/machines/ID/leave      {}: the tab's goodbye (pagehide); its place goes to the next machine asked for
    GET  /favicon.ico                the lamp icon (the pages link it; a browser asks anyway)
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
a 500 with a sentence, never a traceback on the wire or in the log. An
answer or a log line repeats at most ``ECHO_CHARS`` of what a client sent.

A client that misbehaves is refused, never let hold what others need: a
request must arrive whole (and its answer leave) within ``client_timeout``
seconds, however slowly its bytes trickle; its request line and headers
within ``MAX_HEAD`` bytes, one ``Host`` (and one of each header the server
trusts), a target that is a path on this server. At most ``MAX_CLIENTS``
connections are served at once, at most ``PER_ADDRESS`` from one client
address (more get a 429 at once, without taking a place from anyone); when
every place is held, the connection that has waited longest for its request
makes room for a newcomer (a 503 if none is waiting). One address runs at
most ``machines.PER_OWNER`` machines.
"""

import http.client
import io
import ipaddress
import json
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from ..words import Words, languages
from .machines import MachineError, echo

STATIC = os.path.join(os.path.dirname(__file__), "static")
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".svg": "image/svg+xml; charset=utf-8",
}
PAGES = {"/": "play.html", "/index.html": "play.html", "/crowd": "crowd.html"}
FAVICON = "favicon.svg"  # /favicon.ico: a browser asks for it on every page it has not been given one
MAX_BODY = 16 * 1024
CLIENT_TIMEOUT_S = 10  # a whole request and its answer (keep-alive: the wait for it too); then the client is dropped
MAX_CLIENTS = 512  # connections served at once (a thread each); the next ones get a 503 straight away
PER_ADDRESS = 12  # ...of which one client address may hold this many (two browsers' six); more get a 429
MAX_LINE = 8 * 1024  # a request line
MAX_HEAD = 32 * 1024  # a request line and its headers together (http.server alone allows 100 x 64 KB)
EVICT_WAIT_S = 0.5  # when full, how long the accept loop waits for an evicted connection's place
LINGER_S = 1  # after the last answer, what the client still sends is read and dropped this long...
LINGER_BYTES = 256 * 1024  # ...or up to this much, so it reads our 4xx instead of a reset
SINGLE = ("Host", "Content-Length", "Content-Type", "Transfer-Encoding", "Origin")  # trusted: one of each
BACKLOG = 128  # connections the kernel queues before the server takes them
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


def client_key(address):
    """Whom a connection or a machine counts against: its IPv4 address, or its
    IPv6 /64 (what one household or host is given: its addresses are free to it)."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    if ip.version == 6 and ip.ipv4_mapped:
        return str(ip.ipv4_mapped)
    if ip.version == 6:
        return str(ipaddress.ip_network((ip, 64), strict=False))
    return str(ip)


class Deadline(io.RawIOBase):
    """A client's socket that gives up when its request's time is over
    (``Handler.deadline``), however slowly the bytes come: a timeout per
    recv let a client sending one byte every 5 s hold its place for good."""

    def __init__(self, handler):
        io.RawIOBase.__init__(self)
        self.handler = handler
        self.sock = handler.connection

    def readable(self):
        return True

    def writable(self):
        return True

    def readinto(self, buffer):
        self.sock.settimeout(self.handler.time_left())
        return self.sock.recv_into(buffer)

    def write(self, data):
        self.sock.settimeout(self.handler.time_left())
        self.sock.sendall(data)
        return len(data)


class Head(io.BufferedReader):
    """A request's reader: while ``left`` is set (the request line and
    headers), it hands out at most that many bytes in all, then refuses
    (431), so a client cannot make the server hold 100 lines of 64 KB."""

    left = None

    def readline(self, size=-1):
        if self.left is None:
            return io.BufferedReader.readline(self, size)
        most = self.left + 1 if size is None or size < 0 else min(size, self.left + 1)
        line = io.BufferedReader.readline(self, most)
        self.left -= len(line)
        if self.left < 0:
            raise http.client.LineTooLong("a request line and headers of more than %d bytes" % MAX_HEAD)
        return line


def is_address(name):
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


class Handler(BaseHTTPRequestHandler):
    server_version = "Nimatron"
    protocol_version = "HTTP/1.1"

    def __init__(self, request, client_address, server, slot=None):
        self.slot = slot  # its place: evicted while it waits for a request, when the server is full
        BaseHTTPRequestHandler.__init__(self, request, client_address, server)

    def arrived(self):
        """The request is here whole: its place can no longer be taken; False if it was."""
        return self.slot is None or self.slot.busy()

    # -- plumbing --------------------------------------------------------------
    def setup(self):
        BaseHTTPRequestHandler.setup(self)
        self.deadline = time.monotonic() + self.server.client_timeout
        self.body_read = False
        self.rfile.close()  # read and write through the request's deadline instead
        self.rfile = Head(Deadline(self))
        self.wfile = Deadline(self)
        try:  # headers and body go in two writes: without this, Nagle + delayed ACK add 40 ms
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass

    def log_message(self, format, *args):  # the pages poll: no line per request
        pass

    def time_left(self):
        """Seconds this request may still take; TimeoutError when none are left."""
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request took more than %s s" % self.server.client_timeout)
        return left

    def handle_one_request(self):
        """http.server's, with a deadline for the whole request and its answer
        (waiting for it included) and a budget for its head."""
        self.deadline = time.monotonic() + self.server.client_timeout
        self.rfile.left = MAX_HEAD
        self.body_read = False
        self.requestline = self.request_version = self.command = ""
        if self.slot is not None:
            self.slot.wait()
        try:
            self.raw_requestline = self.rfile.readline(MAX_LINE + 1)
            if len(self.raw_requestline) > MAX_LINE:
                return self.send_error(414)
            if not self.raw_requestline:
                self.close_connection = True
                return
            if not self.parse_request():
                return
            if not self.has_body() and not self.arrived():
                self.close_connection = True
                return
            self.rfile.left = None
            answer = getattr(self, "do_" + self.command, None)
            if answer is None:
                return self.send_error(501)
            answer()
            self.wfile.flush()
            if not self.body_read and self.has_body():
                self.close_connection = True  # its body is unread: the next bytes are no request
        except TimeoutError:
            self.close_connection = True

    def parse_request(self):
        """http.server's, and then the request refused (400) unless it is
        unambiguous: a path for a target, one of each header the server
        trusts, no line folded or without a name, no control characters."""
        if not BaseHTTPRequestHandler.parse_request(self):
            return False
        problem = self._head_problem()
        if problem:
            self.close_connection = True
            self._error(400, problem)
            return False
        return True

    def _head_problem(self):
        if self.request_version == "HTTP/0.9":  # "GET /"
            return "send HTTP/1.0 or HTTP/1.1 (GET PATH HTTP/1.1), not a bare GET"
        target = self.path
        if not target.startswith("/"):
            return "ask for a path on this server (/...), not %s" % echo(target, quote=True)
        if any(not 0x21 <= ord(c) <= 0x7E for c in target):
            return "the address %s has characters an address may not" % echo(target, quote=True)
        if self.headers.defects or self.headers.get_payload():
            return "a header line is not NAME: VALUE"
        for name, value in self.headers.items():
            if any((ord(c) < 0x20 and c != "\t") or ord(c) == 0x7F for c in value):
                return "the header %s is folded or has control characters; send it on one line" % echo(name)
        for name in SINGLE:
            if len(self.headers.get_all(name, ())) > 1:
                return "%d %s headers; send one" % (len(self.headers.get_all(name)), name)
        if self.request_version != "HTTP/1.0" and self.headers.get("Host") is None:
            return "name this server in a Host header"
        return None

    def has_body(self):
        length = (self.headers.get("Content-Length") or "0").strip()
        return bool(self.headers.get("Transfer-Encoding")) or length != "0"

    def send_error(self, code, message=None, explain=None):
        """http.server's own errors (a bad request line, an unknown method,
        a line too long) in JSON, like every other answer."""
        words = {
            400: "the request is not HTTP this server understands",
            414: "the address is too long",
            431: "the headers are too long",
            501: "this server answers GET, HEAD and POST only",
        }
        self.close_connection = True
        try:
            self._error(
                code, echo(message, 200) if message and code not in words else words.get(code, message or "refused")
            )
        except OSError:
            pass

    def _send(self, status, body, kind):
        data = body if isinstance(body, bytes) else body.encode("utf-8")
        if self.request_version == "HTTP/0.9":  # a line http.server read as HTTP/0.9 ("GET /", "GET / x y"):
            self.request_version = "HTTP/1.0"  # its refusal would go without a status line
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
            raise RequestError(
                411, "send the body with a Content-Length, not %s" % echo(self.headers["Transfer-Encoding"])
            )
        text = (self.headers.get("Content-Length") or "0").strip()
        if text.startswith("-") and text[1:].isascii() and text[1:].isdigit():
            raise RequestError(400, "Content-Length is negative")
        if not (text.isascii() and text.isdigit()):  # int() would take "+5", " 5" and "1_0"
            raise RequestError(400, "Content-Length is not a number")
        length = int(text)
        if length > MAX_BODY:
            raise RequestError(413, "the body is %d bytes; at most %d" % (length, MAX_BODY))
        # JSON only, even empty: a form on another site cannot send it without asking first
        if kind != "application/json":
            raise RequestError(415, "send the body as application/json, not %s" % echo(kind or "nothing", quote=True))
        raw = self.rfile.read(length) if length > 0 else b""
        if len(raw) < length or not self.arrived():
            raise ConnectionResetError("the client hung up inside its body, or was let go for a newcomer")
        self.body_read = True
        if not raw.strip():
            return {}
        if nesting(raw) > MAX_NESTING:
            raise RequestError(400, "the body is not JSON this server reads: nested too deep")
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            raise RequestError(400, "the body is not JSON: %s" % e) from e
        except RecursionError:
            raise RequestError(400, "the body is not JSON this server reads: nested too deep") from None
        if not isinstance(body, dict):
            raise RequestError(400, 'the body must be a JSON object, like {"press": "done"}')
        return body

    def _check_sender(self, method):
        """Refuse a request that does not name this server, or a POST another site's page sent."""
        host = self.headers.get("Host")
        name, port = split_host(host)
        if name is None or not self.server.serves(name, port):
            raise RequestError(
                403, "this server answers to %s, not to %s" % (self.server.names(), echo(host, quote=True))
            )
        origin = self.headers.get("Origin")
        if method == "POST" and origin is not None and origin.lower().rstrip("/") != "http://" + host.strip().lower():
            raise RequestError(
                403, "a page from %s may not change machines here; use this server's own page" % echo(origin)
            )

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
            if e.settings:  # the page says it in its visitor's words, never the firmware's sentence
                self._json(
                    e.status, {"error": str(e), "said": {lang: Words(lang).refused(str(e)) for lang in languages()}}
                )
            else:
                self._error(e.status, str(e))
        except (BrokenPipeError, ConnectionResetError, TimeoutError, socket.timeout):
            self.close_connection = True  # the tab went away, or stopped sending: let it go
        except Exception as e:  # a fault of ours: one line in the log, a sentence on the wire
            print(
                "nimatron sim --web: %s %s: %s: %s" % (method, echo(path), type(e).__name__, echo(str(e), 200)),
                file=sys.stderr,
            )
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
            return self._file(path[len("/static/") :])
        if path == "/favicon.ico":
            return self._file(FAVICON)
        if path == "/api/config":
            return self._json(200, self.server.config())
        if path == "/api/crowd":
            return self._json(200, machines.crowd())
        if path.startswith("/api/watch/") and path.count("/") == 3:
            return self._json(200, machines.watch(path[len("/api/watch/") :]))
        parts = path.strip("/").split("/")
        if len(parts) == 3 and parts[:2] == ["api", "machines"]:
            return self._json(200, machines.state(parts[2]))
        if path.startswith("/api/"):
            raise RequestError(404, "no such API: GET %s" % echo(path))
        raise RequestError(404, "no page %s here: try / (play) or /crowd (the crowd view)" % echo(path))

    def _post(self, path):
        machines = self.server.machines
        parts = path.strip("/").split("/")
        if parts == ["api", "machines"]:
            body = self._body()
            replaces = body.pop("replaces", None)
            board, overrides = self.server.settings_from(body)
            owner = client_key(self.client_address[0])
            machine = machines.create(board, overrides, replaces=replaces, owner=owner)
            with_state = machines.state(machine.id)
            return self._json(201, with_state)
        if len(parts) == 4 and parts[:2] == ["api", "machines"] and parts[3] == "press":
            body = self._body()
            if set(body) != {"press"}:
                raise RequestError(
                    400,
                    'send {"press": BUTTON}, e.g. {"press": "done"}; got keys %s'
                    % (echo(", ".join(sorted(body))) or "none"),
                )
            return self._json(200, machines.press(parts[2], body["press"]))
        if len(parts) == 4 and parts[:2] == ["api", "machines"] and parts[3] == "leave":
            self._body()
            machines.leave(parts[2])
            return self._json(200, {"left": True})
        if (
            path in PAGES
            or path.startswith("/static/")
            or path in ("/api/config", "/api/crowd")
            or path.startswith("/api/watch/")
        ):
            raise RequestError(405, "%s is read-only: GET it" % echo(path))
        raise RequestError(404, "no such API: POST %s" % echo(path))

    def _file(self, name):
        files = self.server.files
        if name not in files:
            raise RequestError(404, "no file %s here" % echo(name))
        with open(files[name], "rb") as f:
            data = f.read()
        self._send(200, data, TYPES.get(os.path.splitext(name)[1], "application/octet-stream"))


MAX_NESTING = 32  # a request body is a flat object: nothing this server reads nests deeper


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
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # closing quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            most = max(most, depth)
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return most


class Slot:
    """One client's place among ``max_clients`` (and among its address's
    ``per_address``, through ``gone``): freed once, whoever frees it first.

    While it waits for a request to arrive whole (``waiting``: since when),
    a newcomer may take it when every place is held (``evict``): a browser
    sends its request at once, a slow loris never does, so under a flood
    from many addresses users still get in and the trickling sockets are
    the ones let go."""

    def __init__(self, places, gone=None, connection=None):
        self.places = places
        self.gone = gone
        self.connection = connection
        self.lock = threading.Lock()
        self.held = True
        self.waiting = time.monotonic()
        self.evicted = False

    def free(self):
        with self.lock:
            if self.held:
                self.held = False
                self.places.release()
                if self.gone is not None:
                    self.gone(self)

    def wait(self):
        """Its handler waits for a request (a new one on keep-alive)."""
        with self.lock:
            self.waiting = time.monotonic()

    def busy(self):
        """Its request has arrived whole: no longer evicted; False if it was already."""
        with self.lock:
            self.waiting = None
            return not self.evicted

    def evict(self):
        """Let its connection go, if it is still waiting for a request: its
        handler's read ends at once and frees the place. True if it did."""
        with self.lock:
            if not self.held or self.waiting is None or self.evicted:
                return False
            self.evicted = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except (OSError, AttributeError):
                pass
            return True


class NimatronServer(ThreadingHTTPServer):
    """The server and what its handlers share: the machines and the defaults.

    ``host``: the name it was asked to serve (``--host``); requests must name
    it, or localhost. On a wildcard address (``0.0.0.0``, a classroom's LAN)
    any IP address and this computer's own names are accepted, never another
    domain name (DNS rebinding)."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = BACKLOG

    def __init__(
        self,
        address,
        machines,
        *,
        lang="en",
        host="localhost",
        client_timeout=CLIENT_TIMEOUT_S,
        max_clients=MAX_CLIENTS,
        per_address=PER_ADDRESS,
    ):
        self.machines = machines
        self.lang = lang
        self.files = static_files()
        self.client_timeout = client_timeout
        self.clients = threading.BoundedSemaphore(max_clients)
        self.per_address = per_address
        self.held = {}  # client_key -> its connections now; no entry at none, so memory stays bounded
        self.live = set()  # every Slot held now
        self.counting = threading.Lock()
        self._playable = None  # board -> rule sets it plays (``playable``)
        self._playable_lock = threading.Lock()
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
        """A thread per connection, at most ``max_clients`` at once and
        ``per_address`` from one client (beyond that, a 429 in one line and
        the connection closed, before it takes a place: one client cannot
        lock out the others). When every place is held, the connection that
        has waited longest for its request makes room; if none is waiting,
        a 503."""
        owner = client_key(client_address[0])
        with self.counting:
            held = self.held.get(owner, 0)
            if held < self.per_address:
                self.held[owner] = held + 1
        if held >= self.per_address:
            return self._refuse(
                request,
                429,
                "Too Many Requests",
                "your address already has %d connections open "
                "here, the most one address may; close some and try again" % held,
            )
        if not self.clients.acquire(blocking=False) and not self._make_room():
            self._gone(owner=owner)
            return self._refuse(request, 503, "Service Unavailable", "this server is busy; try again in a moment")
        slot = Slot(self.clients, lambda slot: self._gone(slot, owner), request)
        with self.counting:
            self.live.add(slot)
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

    def _refuse(self, request, status, reason, words):
        """One line and the connection closed, from the accept loop: never
        waits on the client (what it has sent so far is read first, so the
        close is a FIN and the client reads the answer, not a reset)."""
        body = json.dumps({"error": words}).encode()
        request.setblocking(False)
        for step in (
            lambda: request.send(
                b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: "
                b"%d\r\nConnection: close\r\n\r\n%s" % (status, reason.encode(), len(body), body)
            ),
            lambda: request.recv(MAX_HEAD),
            lambda: request.shutdown(socket.SHUT_WR),
        ):
            try:
                step()
            except OSError:
                pass
        self.close_request(request)

    def _make_room(self):
        """Every place is held: evict the connection that has waited longest
        for its request, and take its place once its handler lets it go
        (milliseconds; ``EVICT_WAIT_S`` at most). False if none waits."""
        with self.counting:
            waiting = [slot for slot in self.live if slot.waiting is not None]
        for slot in sorted(waiting, key=lambda slot: slot.waiting or 0)[:3]:
            if slot.evict():
                return self.clients.acquire(timeout=EVICT_WAIT_S)
        return False

    def shutdown_request(self, request):
        """A lingering close: our side first, then what the client still
        sends (a refused body, the rest of a 64 KB header) is read and
        dropped for at most ``LINGER_S``: closing with it unread would send
        a reset, and the client would lose our answer."""
        end = time.monotonic() + LINGER_S
        try:
            request.shutdown(socket.SHUT_WR)
            dropped = 0
            while dropped < LINGER_BYTES and time.monotonic() < end:
                request.settimeout(max(0.01, end - time.monotonic()))
                data = request.recv(16384)
                if not data:
                    break
                dropped += len(data)
        except OSError:
            pass
        self.close_request(request)

    def _gone(self, slot=None, owner=None):
        with self.counting:
            self.live.discard(slot)
            left = self.held[owner] - 1
            if left:
                self.held[owner] = left
            else:
                del self.held[owner]

    def _serve_one(self, request, client_address, slot):
        """socketserver's process_request_thread, with the client's slot given to its handler."""
        try:
            try:
                self.RequestHandlerClass(request, client_address, self, slot)
            except Exception:
                self.handle_error(request, client_address)
            finally:
                self.shutdown_request(request)
        finally:
            slot.free()

    def handle_error(self, request, client_address):
        """A client that hangs up or goes silent is normal: not a word; anything else, one line."""
        kind, error = sys.exc_info()[:2]
        if isinstance(error, (ConnectionError, TimeoutError, socket.timeout)):
            return
        print(
            "nimatron sim --web: %s from %s: %s" % (getattr(kind, "__name__", kind), client_address[0], error),
            file=sys.stderr,
        )

    def config(self):
        from nimatron.config import boards, settings
        from nimatron.games.rules import parse_rules

        m = self.machines
        config = {
            "lang": self.lang,
            "langs": languages(),
            "board": m.board,
            "settings": {k: m.overrides[k] for k in SETTING_KEYS if k in m.overrides},
            "boards": [
                {"name": n, "about": boards.board(n)["about"], "preset": boards.board(n)["preset"]}
                for n in boards.names()
            ],
            "presets": [{"name": n, "about": settings.PRESETS[n].get("about", "")} for n in settings.PRESETS],
            "rules": self.playable(),
            "difficulties": list(settings.DIFFICULTIES),
            "first": list(settings.FIRST),
        }
        # each rule set in words (the page shows these, never an id such as "subtract:3")
        config["rules_about"] = {
            spec: parse_rules(spec).about or spec for specs in config["rules"].values() for spec in specs
        }
        return config

    def playable(self):
        """Board -> the rule sets a machine on it plays (``engine.playable_rules``):
        on the server's board with its settings, on another with the page's
        only (``settings_from``). Worked out once: the settings are the server's."""
        with self._playable_lock:
            if self._playable is None:
                from nimatron.config import boards

                from ..engine import playable_rules

                m = self.machines
                own = dict(m.overrides)
                own.pop("rules", None)
                self._playable = {n: playable_rules(n, own if n == m.board else {}) for n in boards.names()}
            return self._playable

    def settings_from(self, body):
        """(board, overrides) for a tab's own machine: the server's, with the
        page's choices over them (on another board, the page's choices
        only: the server's were made for its board). Unknown keys are
        refused, not ignored."""
        from nimatron.config import boards

        unknown = sorted(set(body) - set(SETTING_KEYS) - {"board"})
        if unknown:
            raise RequestError(
                400,
                "unknown setting %s; a page may choose: board, %s"
                % (echo(", ".join(unknown)), ", ".join(SETTING_KEYS)),
            )
        board = body.get("board", self.machines.board)
        if not isinstance(board, str) or board not in boards.names():
            raise RequestError(
                400, "unknown board %s; boards: %s" % (echo(board, quote=True), ", ".join(boards.names()))
            )
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
                        raise RequestError(400, "misere must be true or false, got %s" % echo(value, quote=True))
                    overrides[key] = value
                elif value not in (None, ""):
                    if not isinstance(value, str):
                        raise RequestError(400, "%s must be a word, got %s" % (key, echo(value, quote=True)))
                    if len(value) > 40:
                        raise RequestError(
                            400, "%s %s is longer than any this server knows" % (key, echo(value, quote=True))
                        )
                    overrides[key] = value
        return board, overrides
