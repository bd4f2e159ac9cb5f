# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""How ``nimatron sim --web`` holds up under a classroom (prints figures, asserts nothing).

    .venv/bin/python tests/bench_web_load.py [--seconds 10]

Starts the real server (``nimatron sim --web``) in its own process, then:
1, 10 and 48 tabs, each with its own machine, polling its state every
300 ms as the page does (keep-alive connections), for ``--seconds``: the
median and worst answer; one keep-alive connection asking 200 times in a
row (the time a request costs once connected); and 200 clients that send
half a request and go silent while one tab polls: its worst answer, and
whether the silent ones were let go. Figures: docs/benchmarks.md.
"""
import argparse
import http.client
import json
import os
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
    server = subprocess.Popen([exe, "sim", "--web", "--port", str(port), "--preset", "nimrod"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    server.stdout.readline()  # "Nimatron on http://..." once it listens
    return server


def connect(port):
    return http.client.HTTPConnection("localhost", port, timeout=60)


def ask(conn, method, path, body=None):
    data = None if body is None else json.dumps(body)
    conn.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
    answer = conn.getresponse()
    return answer.status, json.loads(answer.read())


def tabs(port, n, seconds):
    times = []
    lock = threading.Lock()

    def tab():
        conn = connect(port)
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

    threads = [threading.Thread(target=tab) for _ in range(n)]
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
    for _ in range(n):
        sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        sock.sendall(b"POST /api/machines HTTP/1.1\r\nHost: localhost:%d\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{" % port)
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


def ms(values):
    return "median %.1f ms, worst %.1f ms (%d answers)" % (statistics.median(values) * 1000, max(values) * 1000,
                                                           len(values))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=10)
    args = ap.parse_args()
    print("nimatron sim --web, %s, %d cores" % (time.strftime("%Y-%m-%d"), os.cpu_count()))
    phases = [("%2d tabs polling every 300 ms" % n, lambda port, n=n: ms(tabs(port, n, args.seconds)))
              for n in (1, 10, 48)]
    phases.append(("one keep-alive connection, 200 requests", lambda port: ms(keep_alive(port))))

    def silent(port):
        times, dropped = slow_clients(port, 200, args.seconds)
        return "%s; %d of 200 let go by the server" % (ms(times), dropped)

    phases.append(("200 silent half-requests held, one tab polling", silent))
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
