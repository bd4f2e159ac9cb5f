# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron class``: a class of phones against the machine, on the teacher's laptop.

Each student joins from a phone with a first name or a nickname and plays
their own machine (the simulator's, on the simulator's own play page, in
their language); the projector shows the join address (text and QR code),
the class as it arrives, the puzzle rounds' answers live and a leaderboard;
the teacher's view (its key printed in the terminal) shows every student's
lamps and score, sets the rule set and difficulty for everyone, and runs the
rounds. The class is kept in SQLite as it happens (``store``): started again,
the command brings every student back to their game; ``--export`` writes
the results as CSV and ``--end`` erases the class.

    nimatron class                       # http://<this laptop>:8000/ for the phones
    nimatron class --preset marienbad --difficulty teach --port 8080
    nimatron class --export results.csv  # then: nimatron class --end
"""
