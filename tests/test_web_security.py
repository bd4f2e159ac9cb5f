# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron sim --web`` keeps strangers out and keeps going.

A machine's id is its tab's secret: the crowd view gets a watch handle that
presses nothing. Requests must name this server (DNS rebinding), POSTs must
be JSON and come from its own pages (another site's form or script), Apply
frees the old machine's slot, a client that stops sending is let go without
stopping anyone else, and every refusal is one JSON sentence.
"""

import http.client
import json
import socket

import pytest
from devtools import Served, call


@pytest.fixture
def served():
    with Served("pico-neopixel", {"preset": "nimatron"}) as s:
        yield s


def raw(served, method, path, body=b"", headers=None):
    """(status, JSON answer) for a request built by hand (http.client sends what it is told)."""
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        headers = dict({"Host": "localhost:%d" % served.port}, **(headers or {}))
        for name, value in headers.items():
            if value is not None:
                conn.putheader(name, value)
        if body or method == "POST":
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body or None)
        answer = conn.getresponse()
        text = answer.read().decode()
        assert "Traceback" not in text
        return answer.status, json.loads(text)
    finally:
        conn.close()


def test_the_crowd_view_gets_a_handle_that_cannot_press(served):
    _, mine = call(served.url + "/api/machines", {})
    call(served.url + "/api/machines/%s/press" % mine["machine"], {"press": "new"})
    _, crowd = call(served.url + "/api/crowd")
    assert "machine" not in crowd and mine["machine"] not in json.dumps(crowd)
    handle = crowd["watch"]
    status, watched = call(served.url + "/api/watch/" + handle)
    assert status == 200 and watched["state"] == "visitor" and "machine" not in watched
    for url in ("/api/machines/%s/press" % handle, "/api/watch/%s/press" % handle):
        status, answer = call(served.url + url, {"press": "row0"})
        assert status in (404, 405), answer
    status, answer = call(served.url + "/api/watch/" + handle, {"press": "row0"})
    assert status == 405 and "read-only" in answer["error"]
    _, still = call(served.url + "/api/machines/" + mine["machine"])
    assert still["counts"] == mine["counts"] or still["state"] == "visitor"
    assert [e for e in still["events"] if e["kind"] == "move"] == []  # nobody but its tab pressed
    status, answer = call(served.url + "/api/watch/nobody")
    assert status == 404 and "nothing to watch" in answer["error"]


@pytest.mark.parametrize("host", ["evil.example:%d", "evil.example", "localhost:1", "", "[::1", "a b"])
def test_a_request_that_does_not_name_this_server_is_refused(served, host):
    status, answer = raw(served, "GET", "/api/crowd", headers={"Host": host % served.port if "%" in host else host})
    assert status in (400, 403) and "\n" not in answer["error"]


def test_this_servers_own_names_are_answered(served):
    for host in ("localhost:%d", "127.0.0.1:%d", "[::1]:%d", "LOCALHOST:%d", "localhost"):
        status, answer = raw(
            served, "GET", "/api/config", headers={"Host": host % served.port if "%" in host else host}
        )
        assert status == 200, (host, answer)


def test_a_wildcard_server_answers_addresses_and_its_own_names_never_other_domains():
    from nimatron_sim.web.machines import Machines
    from nimatron_sim.web.server import NimatronServer

    server = NimatronServer(("127.0.0.1", 0), Machines("pico-neopixel", {}), host="0.0.0.0")
    try:
        port = server.server_address[1]
        assert server.serves("192.168.1.23", port) and server.serves("fe80::1", None)
        assert server.serves(socket.gethostname().lower(), port) and server.serves("localhost", port)
        assert not server.serves("evil.example", port) and not server.serves("192.168.1.23", port + 1)
    finally:
        server.server_close()


@pytest.mark.parametrize(
    "headers, body, status, words",
    [
        # another site's form: urlencoded, its own Origin
        (
            {"Content-Type": "application/x-www-form-urlencoded", "Origin": "http://evil.example"},
            b"",
            403,
            "may not change machines",
        ),
        ({"Content-Type": "application/x-www-form-urlencoded"}, b"", 415, "application/json"),
        ({"Content-Type": "text/plain"}, b"", 415, "application/json"),
        ({"Content-Type": "application/json", "Origin": "http://evil.example"}, b"{}", 403, "may not change"),
        ({"Content-Type": "application/json", "Origin": "null"}, b"{}", 403, "may not change"),
        ({"Content-Type": "application/json", "Content-Length": "-5"}, b"", 400, "negative"),
        ({"Content-Type": "application/json"}, b"[" * 8000 + b"]" * 8000, 400, "nested too deep"),
    ],
)
def test_machines_are_made_only_by_json_from_this_servers_pages(served, headers, body, status, words):
    before = len(served.machines)
    if "Content-Length" in headers:  # a lie about the body: sent as given
        conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
        conn.putrequest("POST", "/api/machines", skip_host=True)
        conn.putheader("Host", "localhost:%d" % served.port)
        for name, value in headers.items():
            conn.putheader(name, value)
        conn.endheaders()
        answer = conn.getresponse()
        got, data = answer.status, json.loads(answer.read())
        conn.close()
    else:
        got, data = raw(served, "POST", "/api/machines", body, headers)
    assert got == status and words in data["error"], data
    assert len(served.machines) == before  # nothing made


def test_the_servers_own_page_may_post(served):
    origin = "http://localhost:%d" % served.port
    status, answer = raw(served, "POST", "/api/machines", b"{}", {"Content-Type": "application/json", "Origin": origin})
    assert status == 201 and answer["machine"]


def test_apply_frees_the_old_machines_slot():
    with Served("pico-neopixel", {}, limit=3) as served:
        ids = [call(served.url + "/api/machines", {})[1]["machine"] for _ in range(3)]
        status, answer = call(served.url + "/api/machines", {})
        assert status == 503 and "close a tab" in answer["error"]
        status, new = call(served.url + "/api/machines", {"preset": "marienbad", "replaces": ids[0]})
        assert status == 201 and new["settings"]["preset"] == "marienbad" and len(served.machines) == 3
        status, answer = call(served.url + "/api/machines/" + ids[0])
        assert status == 404  # closed at once, not after ten idle minutes
        status, answer = call(served.url + "/api/machines", {"replaces": "not-mine"})
        assert status == 503  # a made-up id frees nothing


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH", "OPTIONS"])
def test_other_methods_get_a_json_sentence(served, method):
    status, answer = raw(served, method, "/api/machines")
    assert status == 405 and method in answer["error"]


def test_a_bad_request_line_gets_a_json_sentence(served):
    with socket.create_connection(("127.0.0.1", served.port), timeout=30) as sock:
        sock.sendall(b"GET /a b c HTTP/1.1\r\n\r\n")
        answer = sock.makefile("rb").read().decode()
    head, _, body = answer.partition("\r\n\r\n")
    assert head.startswith("HTTP/1.") and " 400 " in head.split("\r\n")[0]
    assert "error" in json.loads(body)


def test_a_client_that_stops_sending_is_let_go_and_others_are_answered():
    """A client that misbehaves: half a body, then silence. The others are
    answered meanwhile, and the silent one is dropped after the server's
    client timeout (from another address: one address may hold only
    ``PER_ADDRESS`` connections)."""
    with Served("pico-neopixel", {}) as served:
        served.server.client_timeout = 1
        slow = [
            socket.create_connection(("127.0.0.1", served.port), timeout=30, source_address=("127.0.0.2", 0))
            for _ in range(10)
        ]
        for sock in slow:
            sock.sendall(
                b"POST /api/machines HTTP/1.1\r\nHost: localhost:%d\r\nContent-Type: application/json\r\n"
                b'Content-Length: 100\r\n\r\n{"pre' % served.port
            )
        status, answer = call(served.url + "/api/config")
        assert status == 200 and answer["boards"]  # answered while twenty wait
        for sock in slow:
            assert sock.recv(100) == b""  # dropped by the server: no answer, closed
            sock.close()
        assert len(served.machines) == 0


def until(condition, limit=30, about=lambda: ""):
    """Wait for ``condition`` (polled, never a fixed sleep); AssertionError after ``limit`` s."""
    import time

    end = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < end, "never reached: %s" % about()
        time.sleep(0.01)


def test_beyond_the_most_clients_the_longest_waiting_makes_room_else_a_503():
    """A client that misbehaves, from many addresses: every place held.
    A newcomer takes the place of the connection that has waited longest
    for a request (a slow loris's, or an idle keep-alive); when every
    place is mid-request, it gets a 503 at once."""
    import threading

    from nimatron_sim.web.machines import LOCK

    with Served("pico-neopixel", {}) as served:
        served.server.clients = threading.BoundedSemaphore(2)
        served.server.client_timeout = 60  # on a loaded machine, the idle ones must not time out meanwhile
        ask = b"GET /api/crowd HTTP/1.1\r\nHost: localhost:%d\r\n\r\n" % served.port
        held = [
            socket.create_connection(("127.0.0.1", served.port), timeout=30, source_address=("127.0.0.%d" % i, 0))
            for i in (2, 3)
        ]
        try:

            def answer_on(sock):
                answer = http.client.HTTPResponse(sock)
                answer.begin()
                return answer.status, answer.read()

            def waits(sock):  # its handler is back waiting for a request (on a loaded machine, not at once)
                return any(
                    slot.waiting is not None and slot.connection.getpeername() == sock.getsockname()
                    for slot in list(served.server.live)
                )

            for sock in held:
                sock.sendall(ask)
                assert answer_on(sock)[0] == 200  # keep-alive holds its place, waiting for the next request
                until(lambda: waits(sock))
            with socket.create_connection(("127.0.0.1", served.port), timeout=30) as extra:
                extra.sendall(ask.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"))
                answer = extra.makefile("rb").read().decode()
            assert answer.startswith("HTTP/1.1 200")
            assert held[0].recv(100) == b""  # it had waited longest: let go
            held[0].close()
            until(lambda: len(served.server.live) == 1)  # the newcomer's place is free again: none is taken
            held[0] = socket.create_connection(("127.0.0.1", served.port), timeout=30)
            with LOCK:  # both handlers stop inside their request: nothing waits, nothing can be let go
                for sock in held:
                    sock.sendall(ask)
                until(
                    lambda: len(served.server.live) == 2 and all(s.waiting is None for s in served.server.live),
                    about=lambda: [(s.waiting, s.held, s.evicted) for s in served.server.live],
                )
                with socket.create_connection(("127.0.0.1", served.port), timeout=30) as extra:
                    answer = extra.makefile("rb").read().decode()
            assert " 503 " in answer.split("\r\n")[0] and "busy" in answer
            for sock in held:
                assert answer_on(sock)[0] == 200  # answered once the machines were free
        finally:
            for sock in held:
                sock.close()


def test_deep_nesting_is_refused_whatever_the_recursion_limit(served):
    """mypy, run in the same process by another test, raises the recursion
    limit to 16384: an 8,000-deep body then parsed, and the answer depended
    on which tests had run before. The server counts the brackets itself."""
    import sys

    from nimatron_sim.web.server import MAX_NESTING, nesting

    assert nesting(b'{"press": "done"}') == 1 and nesting(b'{"a": "[[[[[[[["}') == 1
    assert nesting(b'{"a": "\\\\\\"[[[", "b": [[1]]}') == 3  # escaped quotes stay inside the string
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(16384)
    try:
        deep = b"[" * 8000 + b"]" * 8000
        status, data = raw(served, "POST", "/api/machines", deep, {"Content-Type": "application/json"})
        assert status == 400 and "nested too deep" in data["error"], data
        just = b"{" + b'"a":[' * (MAX_NESTING - 1) + b"1" + b"]" * (MAX_NESTING - 1) + b"}"
        status, data = raw(served, "POST", "/api/machines", just, {"Content-Type": "application/json"})
        assert status == 400 and "nested too deep" not in data["error"], data  # read, then refused as a setting
    finally:
        sys.setrecursionlimit(limit)


def test_a_stop_signal_inside_thread_start_still_stops_the_server(monkeypatch):
    """SIGINT/SIGTERM landing in Thread.start() after the client's thread had
    already run freed its slot twice: the ValueError replaced the Ctrl-C, the
    accept loop swallowed it, and `nimatron sim --web` never stopped (seen once
    in about five full suites, as a 30 s timeout)."""
    import threading

    from nimatron_sim.web.server import NimatronServer, Slot

    places = threading.BoundedSemaphore(2)
    places.acquire()
    slot = Slot(places)
    slot.free()
    slot.free()  # the second is a no-op, not a ValueError
    assert places.acquire(blocking=False) and places.acquire(blocking=False)

    real = threading.Thread

    class Interrupted(real):
        def start(self):  # the thread runs to the end, then the signal arrives
            real.start(self)
            self.join()
            raise KeyboardInterrupt

    monkeypatch.setattr(threading, "Thread", Interrupted)
    server = NimatronServer(("127.0.0.1", 0), machines=None)
    try:
        a, b = socket.socketpair()
        b.close()  # the client has gone: its thread ends at once
        with pytest.raises(KeyboardInterrupt):
            server.process_request(a, ("127.0.0.1", 1))
        for _ in range(server.clients._initial_value):  # every slot is free again, none freed twice
            assert server.clients.acquire(blocking=False)
    finally:
        server.server_close()
