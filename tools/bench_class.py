#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron class`` under a class: N scripted students play their machines
over HTTP and the class's WebSocket, as the page does, while the teacher runs
puzzle rounds; prints the 99th percentile of a move reaching the student's
own page and the teacher's view, and checks that no game or answer was lost.

    .venv/bin/python tools/bench_class.py --students 40 --seconds 120 --rounds 3
    .venv/bin/python tools/bench_class.py --students 40 --seconds 120 --rounds 3 --restart   # killed mid-lesson

The server is the real command (``nimatron class``) in its own process, on
localhost; every student comes from this one address. A press's latency to
the page: from sending it until the page's WebSocket brings a state at least
as new as the press's answer (``t``); to the teacher's view: until the
teacher's WebSocket brings a view whose panel for that student is that new.
``--restart``: the server is killed (SIGKILL) halfway and started again on
the same class file; every student must come back to the same machine and
score. ``--browsers N``: N headless Chromium phones join and play too.
"""

import argparse
import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time

import aiohttp

HERE = os.path.dirname(os.path.abspath(__file__))


def percentile(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q / 100.0 * len(values)))]


class Server:
    def __init__(self, port, db, places=40):
        self.port, self.db, self.places = port, db, places
        self.proc = None
        self.key = None

    def start(self):
        prefix = os.environ.get("BENCH_PROFILE", "").split()
        self.proc = subprocess.Popen(
            [sys.executable]
            + prefix
            + [
                "-m",
                "nimatron_host.cli",
                "class",
                "--host",
                "localhost",
                "--port",
                str(self.port),
                "--db",
                self.db,
                "--students",
                str(self.places),
            ],
            stdout=subprocess.PIPE,
            text=True,
            stderr=open(os.environ["BENCH_STDERR"], "a")  # noqa: SIM115 - the server holds it for its life
            if os.environ.get("BENCH_STDERR")
            else subprocess.DEVNULL,
        )
        for line in self.proc.stdout:
            m = re.search(r"#key=(\S+)", line)
            if m:
                self.key = m.group(1)
            if "Ctrl-C" in line:
                return
        raise RuntimeError("nimatron class did not start (BENCH_STDERR=FILE keeps its error)")

    def cpu(self):
        """Seconds of CPU the server has used."""
        with open("/proc/%d/stat" % self.proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.kill()


class Bench:
    def __init__(self, args, server):
        self.args = args
        self.server = server
        self.url = "http://localhost:%d" % server.port
        self.presses = []  # (student, t of the answer, sent at)
        self.page = []  # seconds: press to the student's page
        self.teacher_seen = {}  # student -> [(t, arrival)] from the teacher's view
        self.errors = []
        self.stop_at = 0
        self.down = asyncio.Event()  # the server is being restarted
        self.down.set()


class Student:
    def __init__(self, bench, name):
        self.bench = bench
        self.name = name
        self.states = []  # (t, arrival, state)
        self.latest = None
        self.changed = asyncio.Event()
        self.games = 0  # games seen to end (a win or a loss)
        self.answered = set()  # rounds answered
        self.key = None

    async def run(self, session, arrive=0.0):
        b = self.bench
        await asyncio.sleep(arrive)  # a class joins from the QR code over a few seconds, not in one instant
        async with session.post(b.url + "/class/api/join", json={"name": self.name, "lang": "en"}) as r:
            assert r.status == 201, await r.text()
        async with session.post(b.url + "/api/machines", json={}) as r:
            self.latest = await r.json()
            self.key = self.latest["machine"]
        reader = asyncio.ensure_future(self.read(session))
        try:
            while time.monotonic() < b.stop_at:
                await b.down.wait()
                try:
                    await self.step(session)
                except (aiohttp.ClientError, asyncio.TimeoutError, ConnectionError):
                    await asyncio.sleep(0.5)  # the server restarting: as a page, try again
                await asyncio.sleep(random.uniform(0.3, 1.0))
        finally:
            reader.cancel()

    async def read(self, session):
        while True:
            try:
                async with session.ws_connect(self.bench.url + "/class/ws?as=student") as ws:
                    async for message in ws:
                        data = json.loads(message.data)
                        if "state" in data:
                            s = data["state"]
                            self.states.append((s["t"], time.monotonic()))
                            del self.states[:-200]
                            self.latest = s
                            self.count(s)
                            self.changed.set()
            except (aiohttp.ClientError, ConnectionError):
                pass
            await asyncio.sleep(0.5)

    def count(self, s):
        r = s["classroom"].get("round")
        if r and r["answer"]:
            self.answered.add(r["id"])

    async def press(self, session, what):
        sent = time.monotonic()
        async with session.post(self.bench.url + "/api/machines/%s/press" % self.key, json={"press": what}) as r:
            body = await r.json()
            if r.status != 200:
                self.bench.errors.append("%s %s: %s %s" % (self.name, what, r.status, body.get("error")))
                return None
        self.bench.presses.append((self, body["t"], sent))
        end = time.monotonic() + 5
        while time.monotonic() < end:  # the page's own copy of it, pushed
            self.changed.clear()
            hit = next((arrival for t, arrival in self.states if t >= body["t"]), None)
            if hit is not None:
                self.bench.page.append(max(0.0, hit - sent))
                break
            try:
                await asyncio.wait_for(self.changed.wait(), max(0.01, end - time.monotonic()))
            except asyncio.TimeoutError:
                pass
        else:
            self.bench.page.append(float("inf"))
        self.latest = body
        self.count(body)
        return body

    async def step(self, session):
        s = self.latest
        if s["state"] in ("attract", "over"):
            if s["state"] == "over" and s.get("winner") in ("visitor", "machine"):
                pass
            await self.press(session, "new")
        elif s["state"] == "visitor" and s.get("counts"):
            rows = [r for r, n in enumerate(s["counts"]) if n]
            if not rows:
                return
            row = random.choice(rows)
            for _ in range(random.randint(1, s["counts"][row])):
                if await self.press(session, "row%d" % row) is None:
                    return
            await self.press(session, "done")


async def teacher(bench, session, rounds):
    """The teacher's view open all along; ``rounds`` puzzle rounds through the run."""
    b = bench

    async def view():
        while True:
            try:
                async with session.ws_connect(b.url + "/class/ws?as=teacher") as ws:
                    await ws.send_json({"key": b.server.key})
                    async for message in ws:
                        data = json.loads(message.data)
                        now = time.monotonic()
                        for panel in data.get("teacher", {}).get("students", []):
                            seen = b.teacher_seen.setdefault(panel["name"], [])
                            if not seen or panel["t"] > seen[-1][0]:
                                seen.append((panel["t"], now))
            except (aiohttp.ClientError, ConnectionError):
                pass
            await asyncio.sleep(0.5)

    async def act(what, body=None):
        for _ in range(20):
            await b.down.wait()
            try:
                async with session.post(
                    b.url + "/class/api/teacher/" + what, json=body or {}, headers={"X-Teacher-Key": b.server.key}
                ) as r:
                    if r.status == 200:
                        return
                    b.errors.append("teacher %s: %s" % (what, (await r.json()).get("error")))
                    return
            except (aiohttp.ClientError, ConnectionError):
                await asyncio.sleep(0.5)

    b.watcher = asyncio.ensure_future(view())
    positions = ["3 4 5", "1 5 6 7", "2 5 6"]
    length = b.args.seconds / max(1, rounds)
    try:
        for k in range(rounds):
            await asyncio.sleep(length * 0.3)
            await act("round", {"position": positions[k % len(positions)]})
            await asyncio.sleep(length * 0.4)
            await act("reveal")
            await asyncio.sleep(length * 0.1)
            await act("games")
        await asyncio.sleep(max(0, b.stop_at - time.monotonic()))
    except asyncio.CancelledError:
        b.watcher.cancel()
        raise


async def restart(bench, at):
    await asyncio.sleep(at)
    bench.down.clear()
    before = time.monotonic()
    bench.server.kill()
    bench.server.start()
    bench.restart_s = time.monotonic() - before
    bench.down.set()


def phones(url, n, seconds):
    """N headless Chromium phones (a browser each: a phone's cookies are its
    own) join from the join page and press NEW GAME, TAKE and DONE every 2 s;
    prints how many joined and how many are on their game at the end. Run in
    a process of its own, so its driving costs the measuring process nothing."""
    import contextlib

    sys.path.insert(0, os.path.join(HERE, "..", "tests"))
    from devtools import Chromium

    stop_at = time.monotonic() + seconds
    with contextlib.ExitStack() as stack:
        tabs = []
        for k in range(n):
            browser = stack.enter_context(Chromium())
            tab = browser.open(url + "/join", 390, 844, True)
            tab.wait("document.body && document.body.dataset.ready")
            tab.eval("document.getElementById('name').value = 'Phone %d'" % k)
            tab.click("#join button")
            tab.wait("location.pathname === '/' && document.body && document.body.dataset.ready")
            tabs.append(tab)
        while time.monotonic() < stop_at:
            for tab in tabs:
                try:
                    tab.eval(
                        "(document.querySelector('#press-new') || {click(){}}).click();"
                        "(document.querySelector('.take') || {click(){}}).click();"
                        "(document.querySelector('#press-done') || {click(){}}).click(); 1"
                    )
                except RuntimeError:
                    pass
            time.sleep(2)
        back = sum(
            1
            for tab in tabs
            if tab.eval("!!document.getElementById('class-bar') && document.getElementById('lost').hidden")
        )
    print("phones %d %d" % (len(tabs), back))


async def browsers(bench, n):
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        os.path.abspath(__file__),
        "--phones",
        str(n),
        "--url",
        bench.url,
        "--seconds",
        str(max(1, int(bench.stop_at - time.monotonic()))),
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await proc.communicate()
    m = re.search(rb"phones (\d+) (\d+)", out)
    if m:
        bench.phones, bench.phones_back = int(m.group(1)), int(m.group(2))


async def main_async(args):
    port = args.port
    folder = tempfile.mkdtemp(prefix="nimatron-bench-class-")
    server = Server(port, os.path.join(folder, "class.sqlite3"), max(40, args.students + args.browsers))
    server.start()
    bench = Bench(args, server)
    bench.restart_s = None
    bench.stop_at = time.monotonic() + args.seconds
    sessions = [aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) for _ in range(args.students + 1)]
    students = [Student(bench, "Student %d" % k) for k in range(args.students)]
    try:
        jobs = [
            asyncio.ensure_future(s.run(sessions[k], args.arrive * k / max(1, args.students)))
            for k, s in enumerate(students)
        ]
        jobs.append(asyncio.ensure_future(teacher(bench, sessions[-1], args.rounds)))
        if args.restart:
            jobs.append(asyncio.ensure_future(restart(bench, args.seconds / 2)))
        if args.browsers:
            jobs.append(asyncio.ensure_future(browsers(bench, args.browsers)))
        await asyncio.gather(*jobs)
        await asyncio.sleep(2)  # the teacher's view catches up with the last presses
        bench.watcher.cancel()
        # what the class kept, against what the students saw
        async with sessions[-1].get(
            bench.url + "/class/api/teacher/export.csv", headers={"X-Teacher-Key": server.key}
        ) as r:
            csv_text = await r.text()
        async with sessions[-1].ws_connect(bench.url + "/class/ws?as=teacher") as ws:
            await ws.send_json({"key": server.key})
            view = json.loads((await ws.receive()).data)["teacher"]
        server_cpu = server.cpu()
    finally:
        for s in sessions:
            await s.close()
        server.stop()
        import shutil

        shutil.rmtree(folder, ignore_errors=True)  # the class's names: nothing kept after the run
    panels = {p["name"]: p for p in view["students"]}
    lost_answers = sum(
        1
        for s in students
        for r in s.answered
        if not re.search(r"^%d,[^\n]*,%s," % (r, re.escape(s.name)), csv_text, re.M)
    )
    teacher_lat = []
    for student, t, sent in bench.presses:
        hit = next((arrival for seen_t, arrival in bench.teacher_seen.get(student.name, []) if seen_t >= t), None)
        teacher_lat.append(hit - sent if hit is not None else float("inf"))
    page_ms = [1000 * x for x in bench.page]
    teacher_ms = [1000 * x for x in teacher_lat]
    answers = sum(len(s.answered) for s in students)
    print(
        "nimatron class, %d scripted students%s joining over %.0f s, %d s, %d rounds%s"
        % (
            args.students,
            " + %d Chromium phones" % args.browsers if args.browsers else "",
            args.arrive,
            args.seconds,
            args.rounds,
            ", killed and restarted halfway (%.1f s)" % bench.restart_s if bench.restart_s else "",
        )
    )
    import resource

    print(
        "  CPU: the server %.1f s, the scripted class %.1f s (of %d s; load average %.1f)"
        % (
            server_cpu,
            resource.getrusage(resource.RUSAGE_SELF).ru_utime + resource.getrusage(resource.RUSAGE_SELF).ru_stime,
            args.seconds,
            os.getloadavg()[0],
        )
    )
    print(
        "  presses: %d (%d refused)   games scored: %d   answers: %d"
        % (len(bench.presses), len(bench.errors), sum(p["games"] for p in view["students"]), answers)
    )
    print(
        "  a move to the student's page:  p50 %.1f ms  p99 %.1f ms  max %.1f ms"
        % (percentile(page_ms, 50), percentile(page_ms, 99), max(page_ms or [0]))
    )
    print(
        "  a move to the teacher's view:  p50 %.0f ms  p99 %.0f ms  max %.0f ms"
        % (percentile(teacher_ms, 50), percentile(teacher_ms, 99), max(teacher_ms or [0]))
    )
    print(
        "  students back after the run: %d of %d; answers lost: %d"
        % (sum(1 for s in students if s.name in panels), len(students), lost_answers)
    )
    if args.browsers:
        print(
            "  Chromium phones: %d joined, %d on their game at the end"
            % (getattr(bench, "phones", 0), getattr(bench, "phones_back", 0))
        )
    for e in bench.errors[:5]:
        print("  refused:", e)
    ok = (
        percentile(page_ms, 99) <= 100
        and percentile(teacher_ms, 99) <= 1000
        and lost_answers == 0
        and all(s.name in panels for s in students)
    )
    print("  verdict:", "PASS" if ok else "FAIL")
    return 0 if ok else 1


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--students", type=int, default=40)
    p.add_argument("--seconds", type=int, default=120)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument(
        "--arrive",
        type=float,
        default=5.0,
        help="seconds over which the students join (0: all in one instant, their first NEWs queued)",
    )
    p.add_argument("--restart", action="store_true")
    p.add_argument("--browsers", type=int, default=0)
    p.add_argument("--port", type=int, default=8787)
    p.add_argument("--phones", type=int, help=argparse.SUPPRESS)  # the Chromium phones' own process
    p.add_argument("--url", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.phones:
        phones(args.url, args.phones, args.seconds)
        return 0
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
