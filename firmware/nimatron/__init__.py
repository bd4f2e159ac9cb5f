"""Nimatron: the 1940 Westinghouse Nim machine, recreated.

The core (rules, strategy, game flow, protocol) is pure Python shared by
CPython, MicroPython and CircuitPython; hardware lives in ``drivers``.
"""

__version__ = "0.1.0"
