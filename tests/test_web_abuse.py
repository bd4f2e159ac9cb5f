# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A client that misbehaves: real users are still served.

The kind, not the examples: slow bytes (a slow loris: hundreds of sockets
trickling a header byte at a time), many sockets or many machines from one
address, and requests that are ambiguous (two ``Host`` headers, an absolute
URI, folded or huge headers) or built to be echoed. Each is generated here
with bounded counts and time, on loopback only: other loopback addresses
(127.0.0.2, 127.0.0.3: Linux routes all of 127/8 to lo) stand for other
clients. The figures of a longer flood: ``tests/bench_web_load.py --flood``
(docs/reliability.md).
"""

import http.client
import json
import selectors
import socket
import threading
import time
import urllib.request

import pytest
from devtools import Served
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st
from nimatron_sim.web.machines import PER_OWNER, RECLAIM_S, MachineError, Machines, echo
from nimatron_sim.web.server import MAX_HEAD, PER_ADDRESS, client_key

ATTACKER, USER, OTHER = "127.0.0.2", "127.0.0.3", "127.0.0.4"
FLOOD = 300  # trickling sockets from one address (the server serves 512 at once)
BOUND_S = 30  # generous: what a loaded 2-core machine must stay under, not a timing target
MARK = "Z"  # what every long input is made of: an answer never holds 61 in a row


@pytest.fixture(autouse=True)
def no_threads_left():
    """Every socket and server of a test is closed: its threads end (waited for, never slept on)."""
    before = threading.active_count()
    yield
    end = time.monotonic() + BOUND_S
    while threading.active_count() > before and time.monotonic() < end:
        time.sleep(0.05)
    assert threading.active_count() <= before, [t.name for t in threading.enumerate()]


@pytest.fixture
def served():
    with Served("pico-neopixel", {}) as s:
        yield s


def connect(served, source):
    return socket.create_connection(("127.0.0.1", served.port), timeout=BOUND_S, source_address=(source, 0))


def ask(served, source, method="GET", path="/api/config", body=None):
    """(status, JSON answer) from a client at ``source``."""
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=BOUND_S, source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body)
        conn.request(
            method, path, body=data, headers={"Host": "localhost:%d" % served.port, "Content-Type": "application/json"}
        )
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        conn.close()


def exchange(served, raw, method="GET"):
    """(status, head and body as text) for bytes sent as they are; (None, "") if closed without an answer.
    One at a time: the last one's connection is gone first (a loaded machine lets it go late)."""
    end = time.monotonic() + BOUND_S
    while served.server.held.get(USER) and time.monotonic() < end:
        time.sleep(0.01)
    with connect(served, USER) as sock:
        try:
            sock.sendall(raw)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused before the end of the input: its answer is still there to read
        answer = http.client.HTTPResponse(sock, method=method)
        try:
            answer.begin()
        except http.client.RemoteDisconnected:
            return None, ""
        head = "%d %s\n%s" % (answer.status, answer.reason, answer.headers)
        return answer.status, head + answer.read().decode("utf-8", "replace")


def request(served, line="GET /api/config HTTP/1.1", headers=None, body=b""):
    host = [("Host", "localhost:%d" % served.port)] if headers is None else headers
    text = line + "\r\n" + "".join("%s: %s\r\n" % h for h in host) + "\r\n"
    return text.encode("latin-1") + body


# -- slow bytes, many sockets ---------------------------------------------------------


def test_a_slow_loris_from_one_address_locks_out_nobody(served):
    """300 sockets from one address, each trickling a header byte: at most
    ``PER_ADDRESS`` get a place (the rest a 429 at once), other addresses
    are answered meanwhile, and those with a place are dropped at the
    whole-request deadline although a byte arrives every 0.2 s (a timeout
    per recv never fired: 520 such sockets had locked every user out)."""
    served.server.client_timeout = 2
    flood = []
    try:
        for _ in range(FLOOD):
            sock = connect(served, ATTACKER)
            sock.sendall(b"G")
            flood.append(sock)
        for source in (USER, OTHER) * 10:
            status, answer = ask(served, source)
            assert status == 200 and answer["boards"]
        assert served.server.held.get(ATTACKER, 0) <= PER_ADDRESS
        started = time.monotonic()
        assert trickle(flood) == FLOOD  # every one closed by the server, none left trickling
        assert time.monotonic() - started < BOUND_S
        while served.server.held.get(ATTACKER) and time.monotonic() - started < BOUND_S:
            time.sleep(0.05)
        assert ask(served, ATTACKER)[0] == 200  # the address is let back in once its sockets are gone
    finally:
        for sock in flood:
            sock.close()


def trickle(socks, every=0.2):
    """Send a byte on each socket every ``every`` s until the server closes
    it (or ``BOUND_S`` passes); how many the server closed."""
    selector = selectors.DefaultSelector()
    for sock in socks:
        selector.register(sock, selectors.EVENT_READ)
    closed = 0
    end = time.monotonic() + BOUND_S
    while selector.get_map() and time.monotonic() < end:
        for key, _ in selector.select(every):
            try:
                data = key.fileobj.recv(4096)  # a 429 first, or nothing: then the end
            except OSError:
                data = b""
            if not data:
                selector.unregister(key.fileobj)
                key.fileobj.close()  # the server's lingering close ends at once
                closed += 1
        for key in list(selector.get_map().values()):
            try:
                key.fileobj.send(b"E")
            except OSError:
                pass  # closed: select says so next
    selector.close()
    return closed


def test_beyond_its_share_an_address_is_refused_without_taking_a_place(served):
    """A connection past ``per_address`` gets a 429 in words from the accept
    loop and holds no place; another address gets one."""
    served.server.per_address = 2
    held = [connect(served, ATTACKER) for _ in range(2)]
    try:
        for sock in held:  # each has its thread (keep-alive holds its place)
            sock.sendall(request(served))
            sock.recv(1)
        with connect(served, ATTACKER) as extra:
            answer = extra.makefile("rb").read().decode()
        assert " 429 " in answer.split("\r\n")[0] and "connections open here" in answer
        assert served.server.held == {ATTACKER: 2}
        assert ask(served, USER)[0] == 200
    finally:
        for sock in held:
            sock.close()


def test_clients_are_counted_by_address_and_ipv6_by_its_64():
    assert client_key("127.0.0.2") == "127.0.0.2" != client_key("127.0.0.3")
    assert client_key("2001:db8::1") == client_key("2001:db8::ffff:2") != client_key("2001:db8:0:1::1")
    assert client_key("::ffff:192.0.2.7") == "192.0.2.7" and client_key("fe80::1%eth0") == "fe80::/64"


# -- many machines ------------------------------------------------------------------


def test_one_address_runs_its_share_of_machines_and_others_still_get_one(served):
    """One client POSTing machines gets ``PER_OWNER`` (then a 429 that says
    why), not the whole pool for 10 minutes; another address gets one, and
    Apply (a machine replacing its own) still works at the cap."""
    made = [ask(served, ATTACKER, "POST", "/api/machines", {}) for _ in range(PER_OWNER + 3)]
    assert [status for status, _ in made] == [201] * PER_OWNER + [429] * 3
    assert "your address already runs %d machines" % PER_OWNER in made[-1][1]["error"]
    assert ask(served, USER, "POST", "/api/machines", {})[0] == 201
    status, applied = ask(served, ATTACKER, "POST", "/api/machines", {"replaces": made[0][1]["machine"]})
    assert status == 201 and len(served.machines) == PER_OWNER + 1


def test_a_closed_tabs_machine_makes_room_for_its_address():
    """At the cap, the address's own machine nobody asked about for
    ``RECLAIM_S`` is closed for the new one; one still polled is not."""
    now = [0.0]
    machines = Machines("pico-neopixel", {}, clock=lambda: now[0], per_owner=2)
    try:
        closed, polled = machines.create(owner="a"), machines.create(owner="a")
        with pytest.raises(MachineError) as refused:
            machines.create(owner="a")
        assert refused.value.status == 429
        now[0] += RECLAIM_S + 1
        machines.state(polled.id)
        machines.create(owner="a")
        with pytest.raises(MachineError):
            machines.get(closed.id)
        assert machines.get(polled.id) and len(machines) == 2
        with pytest.raises(MachineError):
            machines.create(owner="a")  # both of its machines are asked about now
        machines.create(owner="b")
    finally:
        machines.close()


def test_a_tab_that_says_goodbye_gives_its_place_back_at_once(served):
    """The page's goodbye (pagehide: a closed tab) gives its place back at once, not 2 minutes later: the
    address's next machine takes it; a reload (the same tab asking for its machine again) keeps its game."""
    made = [ask(served, ATTACKER, "POST", "/api/machines", {})[1]["machine"] for _ in range(PER_OWNER)]
    assert ask(served, ATTACKER, "POST", "/api/machines", {})[0] == 429
    assert ask(served, ATTACKER, "POST", "/api/machines/%s/leave" % made[0], {}) == (200, {"left": True})
    assert ask(served, ATTACKER, "POST", "/api/machines/%s/leave" % made[1], {})[0] == 200
    assert ask(served, ATTACKER, "GET", "/api/machines/" + made[1])[0] == 200  # reloaded: back again
    status, fifth = ask(served, ATTACKER, "POST", "/api/machines", {})
    assert status == 201 and len(served.machines) == PER_OWNER
    assert ask(served, ATTACKER, "GET", "/api/machines/" + made[0])[0] == 404  # the closed tab's place
    assert ask(served, ATTACKER, "GET", "/api/machines/" + made[1])[0] == 200
    assert ask(served, ATTACKER, "POST", "/api/machines", {})[0] == 429  # no tab said goodbye since
    assert ask(served, ATTACKER, "POST", "/api/machines/%s/leave" % made[0], {})[0] == 404
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=BOUND_S)
    try:  # another site's page cannot send a tab's goodbye (nor guess its id)
        conn.request(
            "POST",
            "/api/machines/%s/leave" % fifth["machine"],
            body="{}",
            headers={
                "Host": "localhost:%d" % served.port,
                "Content-Type": "application/json",
                "Origin": "http://example.com",
            },
        )
        assert conn.getresponse().status == 403
    finally:
        conn.close()
    assert ask(served, ATTACKER, "GET", "/api/machines/" + fifth["machine"])[0] == 200


def refused(machines, ident=None, **create):
    """The status a MachineError carries: asking for machine ``ident``, or creating one."""
    with pytest.raises(MachineError) as refusal:
        machines.get(ident) if ident else machines.create(**create)
    return refusal.value.status


def test_a_goodbye_frees_a_full_servers_place():
    """On a full server the place of a tab that said goodbye goes to anyone's next machine (503 otherwise)."""
    machines = Machines("pico-neopixel", {}, limit=2)
    try:
        first = machines.create(owner="a")
        machines.create(owner="b")
        assert refused(machines, owner="c") == 503
        machines.leave(first.id)
        machines.create(owner="c")
        assert refused(machines, first.id) == 404 and refused(machines, owner="c") == 503
    finally:
        machines.close()


def test_the_favicon_answers():
    """A browser asks for /favicon.ico on every page it was not given one: an icon, never a 404."""
    with Served("pico-neopixel", {}) as served:
        request = urllib.request.Request(served.url + "/favicon.ico")
        with urllib.request.urlopen(request, timeout=BOUND_S) as r:
            assert r.status == 200 and r.headers["Content-Type"].startswith("image/svg+xml") and b"<svg" in r.read()
        for page in ("/", "/crowd"):
            with urllib.request.urlopen(served.url + page, timeout=BOUND_S) as r:
                assert b'rel="icon" href="/static/favicon.svg"' in r.read()


# -- ambiguous requests, input built to be echoed ----------------------------------------


def examples(port):
    host = "localhost:%d" % port
    good = [("Host", host)]
    post = [("Content-Type", "application/json")]
    return [
        ("two Host headers, ours first", "GET /api/config HTTP/1.1", good + [("Host", "evil.example")], 400, "2 Host"),
        ("two Host headers, in other cases", "GET /api/config HTTP/1.1", good + [("host", host)], 400, "2 Host"),
        ("an absolute URI", "GET http://evil.example/api/config HTTP/1.1", good, 400, "a path on this server"),
        ("an absolute URI naming us", "GET http://%s/api/config HTTP/1.1" % host, good, 400, "a path"),
        ("an asterisk", "OPTIONS * HTTP/1.1", good, 400, "a path"),
        ("no Host at all", "GET /api/config HTTP/1.1", [], 400, "Host header"),
        ("a bare GET (HTTP/0.9)", "GET /api/config", good, 400, "HTTP/1.1"),
        ("a folded header", "GET /api/config HTTP/1.1", [("Host", host + "\r\n evil.example")], 400, "folded"),
        ("a line without a name", "GET /api/config HTTP/1.1", good + [("Garbage", None)], 400, "NAME: VALUE"),
        ("a control character in a value", "GET /api/config HTTP/1.1", good + [("X-A", "a\x00b")], 400, "control"),
        (
            "two Content-Lengths",
            "POST /api/machines HTTP/1.1",
            good + post + [("Content-Length", "2")] * 2,
            400,
            "2 Content-Length",
        ),
        (
            "two Origins",
            "POST /api/machines HTTP/1.1",
            good + post + [("Origin", "http://" + host), ("Origin", "http://evil.example")],
            400,
            "Origin",
        ),
        (
            "a signed Content-Length",
            "POST /api/machines HTTP/1.1",
            good + post + [("Content-Length", "+2")],
            400,
            "not a number",
        ),
        (
            "headers past the head's budget",
            "GET /api/config HTTP/1.1",
            good + [("X-A", MARK * 9000)] * 4,
            431,
            "too long",
        ),
        ("a request line of 10 KB", "GET /" + MARK * 10000 + " HTTP/1.1", good, 414, "too long"),
        ("a Host of 5,000 characters", "GET /api/config HTTP/1.1", [("Host", MARK * 5000)], 403, "answers to"),
    ]


def test_ambiguous_requests_are_refused_in_a_short_sentence(served):
    for name, line, headers, status, words in examples(served.port):
        raw = "\r\n".join([line] + [n if v is None else "%s: %s" % (n, v) for n, v in headers]) + "\r\n\r\n"
        got, answer = exchange(served, raw.encode("latin-1") + (b"{}" if "POST" in line else b""))
        assert got == status and words in answer, (name, got, answer)
        assert MARK * 61 not in answer and len(answer) < 1000, name


def test_a_body_nobody_read_is_never_taken_for_the_next_request(served):
    """A GET (or a refused POST) with a body: the body is not read, so the
    connection is closed after the answer; its bytes never run as a request."""
    smuggled = request(served, "GET /api/crowd HTTP/1.1")
    raw = request(served, headers=[("Host", "localhost:%d" % served.port), ("Content-Length", str(len(smuggled)))])
    with connect(served, USER) as sock:
        sock.sendall(raw + smuggled)
        answer = sock.makefile("rb").read().decode()
    assert answer.count("HTTP/1.1 ") == 1 and answer.startswith("HTTP/1.1 200")
    assert len(served.machines) == 0  # /api/crowd would have made one


def test_an_echo_is_a_short_escaped_prefix():
    assert echo("abacus") == "abacus" and echo("abacus", quote=True) == "'abacus'" and echo(3, quote=True) == "3"
    assert echo(MARK * 500) == MARK * 60 + "..."
    assert echo("\x1b[2J\u202e\r\n") == "\\x1b[2J\\u202e\\r\\n"


LINES = st.sampled_from(
    [
        "GET http://evil.example/ HTTP/1.1",
        "GET //evil.example/api/config HTTP/1.1",
        "GET evil.example HTTP/1.1",
        "GET * HTTP/1.1",
        "GET / HTTP/1.1 extra",
        "GET / HTTP/9.9",
        "GET / FTP/1.1",
        "BREW /api/config HTTP/1.1",
        "GET /api/config",
        "GET /%s HTTP/1.1" % (MARK * 3000),
        "GET /\x01\x7f HTTP/1.1",
        "GET /\xe9 HTTP/1.1",
        "POST /api/machines/%s/press HTTP/1.1" % (MARK * 200),
        "GET /api/watch/%s HTTP/1.1" % (MARK * 200),
    ]
)
VALUES = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=40)
EXTRA = st.lists(
    st.tuples(st.sampled_from(["Accept", "Cookie", "X-A", "User-Agent", "Content-Type"]), VALUES), max_size=4
)


@st.composite
def misbehaving(draw):
    """A request line and headers with at least one fault in them."""
    line = "GET /api/config HTTP/1.1"
    host = [("Host", "{host}")]
    fault = draw(st.sampled_from(["line", "two hosts", "huge", "control", "two lengths", "long host", "no name"]))
    if fault == "line":
        line = draw(LINES)
    elif fault == "two hosts":
        host.insert(draw(st.integers(0, 1)), ("Host", draw(st.sampled_from(["{host}", "evil.example", "localhost"]))))
    elif fault == "huge":
        host.append(("X-Huge", MARK * draw(st.integers(MAX_HEAD, 3 * MAX_HEAD))))
    elif fault == "control":
        host.append(("X-A", draw(VALUES) + draw(st.sampled_from(["\x00", "\x1b", "\x7f", "\r\n folded"]))))
    elif fault == "two lengths":
        line = "POST /api/machines HTTP/1.1"
        host += [("Content-Length", "0"), ("Content-Length", draw(st.sampled_from(["0", "5", "+0", "0x10"])))]
    elif fault == "long host":
        host = [("Host", MARK * draw(st.integers(61, 20000)))]
    else:
        host.append((MARK * draw(st.integers(61, 2000)), None))
    extra = draw(EXTRA)
    at = draw(st.integers(0, len(extra)))
    return line, extra[:at] + host + extra[at:]


@hsettings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(misbehaving())
def test_whatever_a_client_sends_it_gets_a_short_refusal_and_others_are_served(served, case):
    """Hypothesis over request lines and header lists, each with a fault:
    a 4xx (501, 505 for an unknown method or version), never a 500, at most
    a short escaped prefix of the input echoed; then a normal request is answered."""
    line, headers = case
    host = "localhost:%d" % served.port
    lines = [line] + [
        name if value is None else "%s: %s" % (name, value.replace("{host}", host)) for name, value in headers
    ]
    method = line.split(" ")[0]
    got, answer = exchange(served, ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"), method)
    assert got is not None and (400 <= got < 500 or got in (501, 505)), (got, answer[:300])
    assert MARK * 61 not in answer and len(answer) < 1500 and "Traceback" not in answer
    assert ask(served, OTHER)[0] == 200
