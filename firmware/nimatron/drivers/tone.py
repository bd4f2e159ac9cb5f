# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A speaker or buzzer pin as the tone port of ``nimatron.machine.sound``.

``play(hz, volume)`` starts a square wave and returns at once;
``stop()`` silences it. PWM (``pwmio``, variable frequency) where the pin
has it, as on the MacroPad; the Circuit Playground Express's speaker pin is
a DAC without PWM, so there a short square wave loops through ``audioio``
(or ``audiopwmio``), as Adafruit's ``simpleio.tone`` does, but without
waiting. The ``enable`` pin (the board's amplifier) is on only while a
note sounds, so the speaker does not hiss between sounds.
"""

from .. import const

_LOUDEST = const(0x8000)  # a 50 % duty square wave


class Tone:
    """``pin`` and ``enable`` (or None): the board's pins; ``load`` imports a
    hardware module (``strip_io`` passes its own: a DriverError says why not)."""

    def __init__(self, pin, enable, load):
        self._pwm = None
        self._audio = None
        self._enable = None
        self._pin = pin
        if enable:
            digitalio = load("digitalio")
            self._enable = digitalio.DigitalInOut(enable)
            self._enable.switch_to_output(value=False)
        try:
            pwmio = load("pwmio")
            self._pwm = pwmio.PWMOut(self._pin, frequency=440, duty_cycle=0, variable_frequency=True)
        except ValueError:  # no PWM on this pin: a looped sample instead
            self._audio = _audio_out(self._pin)

    def play(self, hz, volume):
        level = _LOUDEST * min(10, max(0, volume)) // 10
        if self._enable is not None:
            self._enable.value = True
        if self._pwm is not None:
            self._pwm.frequency = int(hz)
            self._pwm.duty_cycle = level
        elif self._audio is not None:
            import array

            import audiocore

            wave = array.array("H", [0x8000 + level - 1] * 4 + [0x8000 - level] * 4)
            self._audio.play(audiocore.RawSample(wave, sample_rate=int(hz) * 8), loop=True)

    def stop(self):
        if self._pwm is not None:
            self._pwm.duty_cycle = 0
        elif self._audio is not None:
            self._audio.stop()
        if self._enable is not None:
            self._enable.value = False

    def deinit(self):
        for name in ("_pwm", "_audio", "_enable"):
            part = getattr(self, name)
            if part is not None:
                setattr(self, name, None)
                part.deinit()


def _audio_out(pin):
    for name in ("audioio", "audiopwmio"):
        try:
            return __import__(name).AudioOut(pin)
        except (ImportError, ValueError):
            continue
    return None
