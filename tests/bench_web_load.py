# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""How ``nimatron sim --web`` holds up under a classroom (prints figures, asserts nothing).

    .venv/bin/python tests/bench_web_load.py [--seconds 10]
    .venv/bin/python tests/bench_web_load.py --flood [--seconds 30]

Starts the real server (``nimatron sim --web``) in its own process, then:
1, 10 and 48 tabs, each with its own machine, polling its state every
300 ms as the page does (keep-alive connections), for ``--seconds``: the
median and worst answer; one keep-alive connection asking 200 times in a
row (the time a request costs once connected); and 200 clients that send
half a request and go silent while one tab polls: its worst answer, and
whether the silent ones were let go. Figures: docs/benchmarks.md.

``--flood``: a client that misbehaves, on loopback (other clients are
other 127.x addresses). A slow loris: 520 sockets trickling one header byte
every 5 s, reopened as soon as the server drops or refuses them, from one
address and then from 65 (8 each), while a user at another address makes
60 requests; and one address asking for 48 machines. Figures:
docs/reliability.md.
"""

import argparse
import http.client
import json
import os
import selectors
import socket
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from devtools import free_port  # noqa: E402


def start(port):
    exe = os.path.join(os.path.dirname(sys.executable), "nimatron")
    server = subprocess.Popen(
        [exe, "sim", "--web", "--port", str(port), "--preset", "nimrod"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    server.stdout.readline()  # "Nimatron on http://..." once it listens
    return server


def connect(port, source="127.0.0.1"):
    """A client at ``source``: each tab of a classroom is its own computer (the server counts per address)."""
    return http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))


def ask(conn, method, path, body=None):
    data = None if body is None else json.dumps(body)
    conn.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
    answer = conn.getresponse()
    return answer.status, json.loads(answer.read())


def tabs(port, n, seconds):
    times = []
    lock = threading.Lock()

    def tab(source):
        conn = connect(port, source)
        _, state = ask(conn, "POST", "/api/machines", {})
        path = "/api/machines/" + state["machine"]
        end = time.monotonic() + seconds
        mine = []
        while time.monotonic() < end:
            t = time.perf_counter()
            ask(conn, "GET", path)
            mine.append(time.perf_counter() - t)
            time.sleep(0.3)
        conn.close()
        with lock:
            times.extend(mine)

    threads = [threading.Thread(target=tab, args=("127.0.2.%d" % (i + 1),)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return times


def keep_alive(port, n=200):
    conn = connect(port)
    ask(conn, "GET", "/api/config")
    times = []
    for _ in range(n):
        t = time.perf_counter()
        ask(conn, "GET", "/api/config")
        times.append(time.perf_counter() - t)
    conn.close()
    return times


def slow_clients(port, n, seconds):
    result = []
    polling = threading.Thread(target=lambda: result.append(tabs(port, 1, seconds)))
    polling.start()
    time.sleep(0.5)  # the tab is playing, then the silent ones arrive
    silent = []
    for i in range(n):  # each from its own address: one address may hold only 12 connections
        sock = socket.create_connection(("127.0.0.1", port), timeout=60, source_address=("127.0.3.%d" % (i + 1), 0))
        sock.sendall(
            b"POST /api/machines HTTP/1.1\r\nHost: localhost:%d\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{" % port
        )
        silent.append(sock)
    polling.join()
    times = result[0]
    dropped = 0
    for sock in silent:
        sock.settimeout(30)
        try:
            dropped += sock.recv(100) == b""
        except OSError:
            pass
        sock.close()
    return times, dropped


def loris(port, n, sources, stop, every=5.0, counts=None):
    """Hold ``n`` sockets from ``sources`` (in turn), each sending one header
    byte every ``every`` s, reopening each the server closes, until ``stop``."""
    selector = selectors.DefaultSelector()
    due = {}
    turn = 0
    counts = {"opened": 0, "refused": 0, "closed": 0} if counts is None else counts
    while not stop.is_set():
        while len(due) < n and not stop.is_set():
            try:
                sock = socket.create_connection(
                    ("127.0.0.1", port), timeout=5, source_address=(sources[turn % len(sources)], 0)
                )
                sock.setblocking(False)
                sock.send(b"G")
            except OSError:
                break
            turn += 1
            counts["opened"] += 1
            due[sock] = time.monotonic() + every
            selector.register(sock, selectors.EVENT_READ)
        for key, _ in selector.select(0.2):
            try:
                data = key.fileobj.recv(4096)
            except OSError:
                data = b""
            if data.startswith(b"HTTP/1.1 4") or data.startswith(b"HTTP/1.1 5"):
                counts["refused"] += 1
            if not data:
                counts["closed"] += 1
                selector.unregister(key.fileobj)
                del due[key.fileobj]
                key.fileobj.close()
        now = time.monotonic()
        for sock, when in list(due.items()):
            if when <= now:
                try:
                    sock.send(b"E")
                except OSError:
                    pass
                due[sock] = now + every
    for sock in due:
        sock.close()
    selector.close()
    return counts


def user_requests(port, source, n, seconds):
    """``n`` requests (a new connection each) spread over ``seconds``: the statuses and times."""
    answers = []
    for _i in range(n):
        t = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
        try:
            conn.request("GET", "/api/config", headers={"Host": "localhost:%d" % port})
            answer = conn.getresponse()
            answer.read()
            status = answer.status
        except OSError as e:
            status = type(e).__name__
        finally:
            conn.close()
        answers.append((status, time.perf_counter() - t))
        time.sleep(max(0.0, seconds / n - (time.perf_counter() - t)))
    return answers


def flood(port, sources, seconds, n=520):
    stop = threading.Event()
    counts = {"opened": 0, "refused": 0, "closed": 0}
    attacker = threading.Thread(target=loris, args=(port, n, sources, stop), kwargs={"counts": counts})
    attacker.start()
    time.sleep(3)  # the sockets are open and trickling
    try:
        answers = user_requests(port, "127.0.0.200", 60, seconds)
    finally:
        stop.set()
        attacker.join()
    served = [t for status, t in answers if status == 200]
    refused = len(answers) - len(served)
    kinds = sorted({str(status) for status, _ in answers if status != 200})
    return (
        "%d of 60 user requests served, %d refused%s; %s; attacker: %d sockets opened, %d refused at once, "
        "%d closed by the server"
        % (
            len(served),
            refused,
            " (%s)" % ", ".join(kinds) if kinds else "",
            ms(served) if served else "no answers",
            counts["opened"],
            counts["refused"],
            counts["closed"],
        )
    )


def machines_flood(port):
    made = {}
    for source, n in (("127.0.0.2", 48), ("127.0.0.3", 1)):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
        statuses = []
        for _ in range(n):
            conn.request(
                "POST",
                "/api/machines",
                body="{}",
                headers={"Host": "localhost:%d" % port, "Content-Type": "application/json"},
            )
            answer = conn.getresponse()
            words = json.loads(answer.read()).get("error", "")
            statuses.append(answer.status)
        conn.close()
        made[source] = statuses
    one, other = made["127.0.0.2"], made["127.0.0.3"]
    return 'one address: %d of 48 made, then %d refused (%s); another address: %s ("%s")' % (
        one.count(201),
        len(one) - one.count(201),
        ", ".join(sorted({str(s) for s in one if s != 201})) or "none",
        other[0],
        words[:60] or "made",
    )


def ms(values):
    return "median %.1f ms, worst %.1f ms (%d answers)" % (
        statistics.median(values) * 1000,
        max(values) * 1000,
        len(values),
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=None, help="each phase's length (10 s; --flood 30 s)")
    ap.add_argument("--flood", action="store_true", help="a client that misbehaves: slow loris, many machines")
    args = ap.parse_args()
    print("nimatron sim --web, %s, %d cores" % (time.strftime("%Y-%m-%d"), os.cpu_count()))
    if args.flood:
        seconds = args.seconds or 30
        run(
            [
                (
                    "slow loris, 520 sockets from one address, a user polling from another",
                    lambda port: flood(port, ["127.0.0.2"], seconds),
                ),
                (
                    "slow loris, 520 sockets from 65 addresses (8 each), a user polling from another",
                    lambda port: flood(port, ["127.0.1.%d" % i for i in range(1, 66)], seconds),
                ),
                ("48 machines asked for by one address", machines_flood),
            ]
        )
        return
    args.seconds = args.seconds or 10
    phases = [
        ("%2d tabs polling every 300 ms" % n, lambda port, n=n: ms(tabs(port, n, args.seconds))) for n in (1, 10, 48)
    ]
    phases.append(("one keep-alive connection, 200 requests", lambda port: ms(keep_alive(port))))

    def silent(port):
        times, dropped = slow_clients(port, 200, args.seconds)
        return "%s; %d of 200 let go by the server" % (ms(times), dropped)

    phases.append(("200 silent half-requests held, one tab polling", silent))
    run(phases)


def run(phases):
    log = 0
    for name, phase in phases:  # a server each: a tab's machine lives ten minutes
        port = free_port()
        server = start(port)
        try:
            print("%s: %s" % (name, phase(port)))
        finally:
            server.terminate()
            out, err = server.communicate(timeout=30)
        log += len(err.strip().splitlines())
    print("server log: %d lines in all" % log)


if __name__ == "__main__":
    main()
