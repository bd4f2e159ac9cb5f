# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The classroom's web side: aiohttp, pages pushed to over one WebSocket each.

    GET  /                       a student: the join page, or (joined) the simulator's own play page
    GET  /join                   the join page (a first name or a nickname, a language)
    GET  /projector              the projector: the join address and its QR code, the class, the round
    GET  /teacher#key=KEY        the teacher's view (KEY printed in the terminal)
    GET  /qr.svg                 the join address as a QR code (segno)
    GET  /api/config             what the play page asks (the simulator's, for the class's board)
    POST /api/machines           the student's own machine (their cookie's), made or brought back
    GET  /api/machines/KEY       its state;   POST /api/machines/KEY/press  {"press": ...}
    POST /class/api/join         {"name": ..., "lang": ...}: a place in the class, its secret in a cookie
    WS   /class/ws?as=student|projector|teacher    states pushed as they change
    POST /class/api/teacher/...  settings, round, reveal, games, end (the X-Teacher-Key header)
    GET  /class/api/teacher/export.csv

Who may do what: a student's cookie (HttpOnly, SameSite=Strict) presses their
own machine only; the projector reads, never acts; the teacher's requests
carry the key printed in the terminal (compared in constant time), a header
no other site's page can send without asking first. Every request must name
this server in ``Host`` (one Host; on 0.0.0.0 any IP address or this
computer's names, never another domain: DNS rebinding); every POST and every
WebSocket must come from this server's own pages (``Origin``), and POSTs are
JSON of at most ``MAX_BODY`` bytes, headers at most 8 KB a line and 64 of
them. Limits count students, not addresses: a class behind one address works.
A page that does not read its pushes is let go after ``SEND_TIMEOUT_S``
(a pushed state replaces the one not yet sent: nothing queues up).
"""

import asyncio
import json
import os
import secrets
import socket
import sys
import time

from aiohttp import WSMsgType, web

from ..web.machines import echo
from ..web.server import LOCAL_NAMES, STATIC as SIM_STATIC, TYPES, is_address, split_host, static_files
from ..words import Words, languages
from .room import ClassError

HERE = os.path.join(os.path.dirname(__file__), "static")
MAX_BODY = 16 * 1024
MAX_WS_MESSAGE = 4 * 1024
TICK_S = 0.05  # machines run and changed states pushed this often
TICK_GROUP = 8  # ... this many students' at a time, requests answered between
VIEW_S = 0.25  # the teacher's and the projector's views at most this often
SEND_TIMEOUT_S = 10  # a page that takes longer to read one push is let go
PER_STUDENT = 4  # pages one student may keep open (tabs, a phone and a laptop)
MAX_WATCHERS = 16  # projector pages open at once (read-only, anyone's)
MAX_TEACHERS = 4
ADDRESS_S = 5  # the laptop's address looked at this often (its network may change)
KEY_WAIT_S = 5  # a teacher's page sends its key at once
COOKIE = "nimatron-class"
MAX_LINE = 8190  # bytes in a request line or one header (aiohttp's parser refuses more)
MAX_HEADERS = 64  # headers in a request
# The server's own limits, for aiohttp's AppRunner (the command and the tests alike).
RUNNER = {
    "access_log": None,
    "keepalive_timeout": 15,
    "max_line_size": MAX_LINE,
    "max_field_size": MAX_LINE,
    "max_headers": MAX_HEADERS,
}
PAGES = {"/join": "join.html", "/projector": "projector.html", "/teacher": "teacher.html"}
SECURITY = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def lan_address():
    """The address phones reach this computer at (the route out; no packet is sent)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.connect(("10.255.255.255", 1))
        return sock.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        sock.close()


def app_lan_address():
    return lan_address()


class Hosts:
    """The names a request may give in Host (as the simulator's server)."""

    def __init__(self, host, port):
        host = (host or "localhost").lower().strip("[]")
        self.port = port
        self.wildcard = host in ("0.0.0.0", "::", "")
        self.names = set(LOCAL_NAMES)
        if self.wildcard:
            for name in (socket.gethostname(), socket.getfqdn()):
                self.names.update((name.lower(), name.lower() + ".local"))
        else:
            self.names.add(host)

    def serves(self, value):
        name, port = split_host(value)
        if name is None or (port is not None and self.port and port != self.port):
            return False
        return name in self.names or (self.wildcard and is_address(name))


class Peer:
    """One open page: the newest push waits in ``pending`` (a newer one replaces
    it), its own task sends it; a page too slow to read is closed."""

    def __init__(self, ws, kind, student=None):
        self.ws = ws
        self.kind = kind
        self.student = student
        self.pending = None
        self.since = time.monotonic()
        self.ready = asyncio.Event()
        self.task = asyncio.ensure_future(self._run())

    def push(self, text):
        self.pending = text
        self.ready.set()

    async def _run(self):
        try:
            while not self.ws.closed:
                await self.ready.wait()
                self.ready.clear()
                text, self.pending = self.pending, None
                if text is not None:
                    await asyncio.wait_for(self.ws.send_str(text), SEND_TIMEOUT_S)
        except (asyncio.TimeoutError, ConnectionError, RuntimeError):
            await self.ws.close(code=1008, message=b"too slow")
        except asyncio.CancelledError:
            pass


def error(status, message, key=None):
    body = {"error": message}
    if key:
        body["key"] = key
    return web.json_response(body, status=status, headers=SECURITY)


def dumps(data):
    return json.dumps(data, separators=(",", ":"))


class ClassApp:
    """The aiohttp application around a ``Room``."""

    def __init__(self, room, *, host="0.0.0.0", port=0, lang="en", join_url=None, out=sys.stdout):
        self.room = room
        self.hosts = Hosts(host, port)
        self.host = host
        self.port = port
        self.lang = lang
        self.out = out
        self._join_url = join_url
        self.peers = set()
        self.sim_files = static_files()
        self.class_files = {
            name: os.path.join(HERE, name) for name in os.listdir(HERE) if os.path.isfile(os.path.join(HERE, name))
        }
        for name in os.listdir(os.path.join(HERE, "lang")):
            self.class_files["lang/" + name] = os.path.join(HERE, "lang", name)
        self._presets = None
        self._views_at = 0.0
        self._address = None
        self.app = web.Application(middlewares=[self.guard], client_max_size=MAX_BODY)
        self.app.router.add_route("*", "/{tail:.*}", self.route)
        self.app.on_startup.append(self._start)
        self.app.on_shutdown.append(self._stop)

    # -- the join address ------------------------------------------------------------
    def join_url(self):
        if self._join_url:
            return self._join_url
        if self.hosts.wildcard:
            return "http://%s:%d/" % (self._address or app_lan_address(), self.port)
        return "http://%s:%d/" % (self.host if self.host != "0.0.0.0" else "localhost", self.port)

    # -- the loops ---------------------------------------------------------------------
    async def _start(self, app):
        self._tasks = [asyncio.ensure_future(self._ticker()), asyncio.ensure_future(self._watch_address())]

    async def _stop(self, app):
        for task in self._tasks:
            task.cancel()
        for peer in list(self.peers):
            await peer.ws.close(code=1001, message=b"server stopping")

    async def _ticker(self):
        while True:
            await asyncio.sleep(TICK_S)
            try:
                self.room.deal()
                students = list(self.room.by_id.values())
                for k in range(0, len(students), TICK_GROUP):  # presses are answered between the groups
                    self.push_changed(self.room.tick(students[k : k + TICK_GROUP]))
                    await asyncio.sleep(0)
                self.push_views_due()
            except Exception as e:  # a fault of ours: one line, the class goes on
                print("nimatron class: %s: %s" % (type(e).__name__, echo(str(e), 200)), file=sys.stderr)

    async def _watch_address(self):
        """The laptop's network changed: the projector shows the new address."""
        while self.hosts.wildcard and not self._join_url:
            address = app_lan_address()
            if address != self._address:
                self._address = address
                self.room.changed = True
            await asyncio.sleep(ADDRESS_S)

    def pump(self):
        """Push what changed: each student's machine to their pages; the views."""
        self.push_changed(self.room.tick())
        self.push_views_due()

    def push_changed(self, changed):
        for student, state in changed:
            self.push_student(student, state)
        if changed:
            self.room.changed = True

    def push_views_due(self):
        now = time.monotonic()
        if self.room.changed and now - self._views_at >= VIEW_S:
            self.room.changed = False
            self._views_at = now
            self.push_views()

    def push_student(self, student, state):
        text = None
        for peer in self.peers:
            if peer.student is student:
                text = text or dumps({"state": state})
                peer.push(text)

    def push_views(self):
        teacher = projector = None
        for peer in self.peers:
            if peer.kind == "teacher":
                teacher = teacher or dumps({"teacher": self.room.teacher()})
                peer.push(teacher)
            elif peer.kind == "projector":
                projector = projector or dumps({"projector": self.projector()})
                peer.push(projector)

    def projector(self):
        return dict(self.room.projector(), join=self.join_url())

    # -- the guard: every request ------------------------------------------------------------
    @web.middleware
    async def guard(self, request, handler):
        hosts = request.headers.getall("Host", [])
        if len(hosts) != 1:
            return error(400, "%d Host headers; send one" % len(hosts))
        if not self.hosts.serves(hosts[0]):
            return error(
                403, "this server answers to its own names and addresses, not to %s" % echo(hosts[0], quote=True)
            )
        if len(request.headers) > MAX_HEADERS:
            return error(431, "%d headers; at most %d" % (len(request.headers), MAX_HEADERS))
        for name in ("Origin", "Content-Type", "Content-Length", "Cookie"):
            if len(request.headers.getall(name, [])) > 1:
                return error(400, "%d %s headers; send one" % (len(request.headers.getall(name)), name))
        if request.method not in ("GET", "HEAD", "POST"):
            return error(405, "%s is not answered here: GET the pages, POST presses" % echo(request.method))
        upgrade = request.headers.get("Upgrade", "").lower() == "websocket"
        origin = request.headers.get("Origin")
        if (
            (request.method == "POST" or upgrade)
            and origin is not None
            and origin.lower().rstrip("/") != "http://" + hosts[0].strip().lower()
        ):
            return error(403, "a page from %s may not act here; use this server's own pages" % echo(origin))
        try:
            response = await handler(request)
        except ClassError as e:
            return error(e.status, str(e), e.key)
        except web.HTTPRequestEntityTooLarge:
            return error(413, "the body is too long; at most %d bytes" % MAX_BODY)
        except web.HTTPException as e:
            if e.status >= 400:  # aiohttp's own refusals (a WebSocket without its upgrade): a sentence too
                return error(e.status, "refused: %s" % echo(e.text or e.reason, 200))
            raise
        except (ConnectionError, asyncio.CancelledError):
            raise
        except Exception as e:
            print(
                "nimatron class: %s %s: %s: %s"
                % (request.method, echo(request.path), type(e).__name__, echo(str(e), 200)),
                file=sys.stderr,
            )
            return error(500, "the server failed to answer (%s); nothing changed" % type(e).__name__)
        return response

    async def body(self, request):
        kind = (request.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise ClassError("send the body as application/json, not %s" % echo(kind or "nothing", quote=True), 415)
        if request.content_length is not None and request.content_length > MAX_BODY:
            raise ClassError("the body is %d bytes; at most %d" % (request.content_length, MAX_BODY), 413)
        raw = await request.read()
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as e:
            raise ClassError("the body is not JSON: %s" % echo(str(e), 100)) from e
        if not isinstance(data, dict):
            raise ClassError("the body must be a JSON object")
        return data

    def student_of(self, request):
        return self.room.student(request.cookies.get(COOKIE))

    def teacher_check(self, request):
        key = request.headers.get("X-Teacher-Key", "")
        if not key or not secrets.compare_digest(key.encode("utf-8", "replace"), self.room.teacher_key.encode()):
            raise ClassError("only the teacher's page (the address printed in the terminal) may do this", 403)

    # -- routes -----------------------------------------------------------------------
    async def route(self, request):
        path = request.path
        method = "GET" if request.method == "HEAD" else request.method
        if method == "GET":
            if path == "/":
                if request.cookies.get(COOKIE) in self.room.students:
                    return self.play_page()
                return self.file(self.class_files, "join.html")
            if path == "/join":
                if request.cookies.get(COOKIE) in self.room.students:
                    raise web.HTTPFound("/")
                return self.file(self.class_files, "join.html")
            if path in PAGES:
                return self.file(self.class_files, PAGES[path])
            if path.startswith("/static/"):
                return self.file(self.sim_files, path[len("/static/") :])
            if path.startswith("/class/static/"):
                return self.file(self.class_files, path[len("/class/static/") :])
            if path == "/qr.svg":
                return self.qr()
            if path == "/class/api/me":
                return web.json_response({"name": self.student_of(request).name}, headers=SECURITY)
            if path == "/api/config":
                return web.json_response(self.config(), headers=SECURITY)
            if path == "/class/ws":
                return await self.websocket(request)
            if path == "/class/api/teacher/export.csv":
                self.teacher_check(request)
                return web.Response(
                    text=self.room.store.csv_text(Words(self.lang).preset),
                    content_type="text/csv",
                    headers=dict(SECURITY, **{"Content-Disposition": 'attachment; filename="nimatron-class.csv"'}),
                )
            parts = path.strip("/").split("/")
            if len(parts) == 3 and parts[:2] == ["api", "machines"]:
                student = self.room.owned(request.cookies.get(COOKIE), parts[2])
                return web.json_response(self.room.state(student), headers=SECURITY)
            raise ClassError("no page %s here: try / (join), /projector or /teacher" % echo(path), 404)
        # POST
        parts = path.strip("/").split("/")
        if path == "/class/api/join":
            body = await self.body(request)
            lang = body.get("lang") if body.get("lang") in languages() else self.lang
            student = self.room.join(body.get("name"), lang)
            response = web.json_response({"name": student.name}, status=201, headers=SECURITY)
            response.set_cookie(COOKIE, student.token, httponly=True, samesite="Strict", max_age=12 * 3600, path="/")
            return response
        if parts == ["api", "machines"]:
            await self.body(request)  # a tab's settings: the teacher sets them for the class
            student = self.student_of(request)
            return web.json_response(self.room.state(student), status=201, headers=SECURITY)
        if len(parts) == 4 and parts[:2] == ["api", "machines"] and parts[3] == "press":
            student = self.room.owned(request.cookies.get(COOKIE), parts[2])
            body = await self.body(request)
            if set(body) != {"press"}:
                raise ClassError('send {"press": BUTTON}, e.g. {"press": "done"}')
            state = self.room.press(student, body["press"])
            self.push_student(student, state)
            self.room.changed = True
            return web.json_response(state, headers=SECURITY)
        if len(parts) == 4 and parts[:3] == ["class", "api", "teacher"]:
            self.teacher_check(request)
            body = await self.body(request)
            return web.json_response(self.teacher_act(parts[3], body), headers=SECURITY)
        raise ClassError("no such API: POST %s" % echo(path), 404)

    def teacher_act(self, what, body):
        room = self.room
        if what == "settings":
            room.set_settings(body.get("preset"), body.get("difficulty"))
        elif what == "round":
            room.open_round(body.get("position"), body.get("preset") or None)
        elif what == "reveal":
            room.reveal()
        elif what == "games":
            room.end_round()
        elif what == "end":
            for peer in list(self.peers):
                if peer.kind == "student":
                    peer.push(dumps({"ended": True}))
            room.end_class()
            self._views_at = 0.0
            self.pump()
            return {"ended": True}
        else:
            raise ClassError("no teacher's action %s" % echo(what, quote=True), 404)
        self.room.changed = True
        self._views_at = 0.0
        self.pump()
        return {"ok": True}

    def file(self, files, name):
        if name not in files:
            raise ClassError("no file %s here" % echo(name), 404)
        with open(files[name], "rb") as f:
            data = f.read()
        kind = TYPES.get(os.path.splitext(name)[1], "application/octet-stream")
        return web.Response(body=data, headers=dict(SECURITY, **{"Content-Type": kind}))

    def play_page(self):
        """The simulator's own play page, with the class's script and style added."""
        with open(os.path.join(SIM_STATIC, "play.html"), encoding="utf-8") as f:
            page = f.read()
        page = play_page(page)
        return web.Response(text=page, content_type="text/html", charset="utf-8", headers=SECURITY)

    def qr(self):
        import io

        import segno

        out = io.BytesIO()
        segno.make(self.join_url(), error="m").save(
            out, kind="svg", scale=8, border=2, dark="#000", light="#fff", title="QR code of " + self.join_url()
        )
        return web.Response(body=out.getvalue(), headers=dict(SECURITY, **{"Content-Type": "image/svg+xml"}))

    def config(self):
        from nimatron.config import settings

        room = self.room
        return {
            "lang": self.lang,
            "langs": languages(),
            "board": room.board,
            "settings": dict(room.settings),
            "boards": [{"name": room.board, "about": ""}],
            "presets": [{"name": n, "about": settings.PRESETS[n].get("about", "")} for n in self.presets()],
            "rules": {room.board: []},
            "rules_about": {},
            "difficulties": list(settings.DIFFICULTIES),
            "first": list(settings.FIRST),
        }

    def presets(self):
        """The presets a machine on the class's board plays (tried once)."""
        if self._presets is None:
            from nimatron.config import settings

            playable = []
            for name in settings.PRESETS:
                try:
                    self.room.check_settings({"preset": name})
                    playable.append(name)
                except ClassError:
                    pass
            self._presets = playable
        return self._presets

    # -- the pushes ---------------------------------------------------------------------------
    async def websocket(self, request):
        kind = request.query.get("as", "student")
        student = None
        if kind == "student":
            token = request.cookies.get(COOKIE)
            if token not in self.room.students:
                raise ClassError("join the class first (your name is not in this class)", 401, "join.first")
            student = self.room.students[token]
        elif kind not in ("projector", "teacher"):
            raise ClassError("as=student, projector or teacher", 400)
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=MAX_WS_MESSAGE)
        await ws.prepare(request)
        peer = None
        try:
            # a teacher's first message is the key (a page cannot set a WebSocket's headers)
            if kind == "teacher" and not await self._teacher_key(ws):
                await ws.close(code=4003, message=b"not the teacher's key")
                return ws
            await self._make_room(kind, student)
            peer = self._joined(ws, kind, student)
            async for message in ws:  # pages send nothing else: anything is read and dropped
                if message.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
        finally:
            if peer is not None:
                self._gone(peer)
        return ws

    async def _make_room(self, kind, student):
        """At most ``PER_STUDENT`` pages a student, ``MAX_TEACHERS`` teacher's and
        ``MAX_WATCHERS`` projector pages: the oldest makes room for the newest
        (a phone that slept, a teacher's page closed and reopened)."""
        most = {"student": PER_STUDENT, "teacher": MAX_TEACHERS, "projector": MAX_WATCHERS}[kind]
        mine = [p for p in self.peers if p.kind == kind and p.student is student]
        for old in sorted(mine, key=lambda p: p.since)[: max(0, len(mine) - most + 1)]:
            self._gone(old)
            await old.ws.close(code=1008, message=b"replaced by a newer page")

    async def _teacher_key(self, ws):
        try:
            message = await ws.receive(timeout=KEY_WAIT_S)
            key = json.loads(message.data).get("key", "") if message.type == WSMsgType.TEXT else ""
        except (asyncio.TimeoutError, ValueError, AttributeError, TypeError):
            return False
        return (
            isinstance(key, str)
            and bool(key)
            and secrets.compare_digest(key.encode("utf-8", "replace"), self.room.teacher_key.encode())
        )

    def _joined(self, ws, kind, student):
        peer = Peer(ws, kind, student)
        self.peers.add(peer)
        if student is not None:
            self.room.connected(student, True)
            student.sent = None
            peer.push(dumps({"state": self.room.state(student)}))
        elif kind == "teacher":
            peer.push(dumps({"teacher": self.room.teacher()}))
        else:
            peer.push(dumps({"projector": self.projector()}))
        self.room.changed = True
        return peer

    def _gone(self, peer):
        if peer in self.peers:
            self.peers.discard(peer)
            peer.task.cancel()
            if peer.student is not None:
                self.room.connected(peer.student, False)


SCRIPT = '<script src="/static/play.js" defer></script>'


def play_page(page):
    """play.html with the class's style and script (loaded before play.js: it
    answers play.js's poll with pushes)."""
    if SCRIPT not in page or "</head>" not in page:
        raise RuntimeError("the simulator's play.html no longer loads %s" % SCRIPT)
    page = page.replace(
        SCRIPT,
        '<script src="/class/static/class.js" defer></script>\n'
        '<script src="/class/static/student.js" defer></script>\n' + SCRIPT,
    )
    return page.replace("</head>", '<link rel="stylesheet" href="/class/static/class.css">\n</head>')
