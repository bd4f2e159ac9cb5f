# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The soak's NOR flash tears (``flash.FlashNvm(tear=...)``): a cut in a page
program leaves only some of that page's bits programmed, a cut in an erase
leaves any 0 bit of the sector erased or not; bits never go the wrong way."""

import random

import pytest
from nimatron_sim.flash import PAGE, SIZE, FlashNvm, Power, PowerCut


def zeros(data):
    return [i * 8 + b for i, byte in enumerate(data) for b in range(8) if not byte >> b & 1]


def test_a_program_is_one_step_per_page_it_touches():
    nvm = FlashNvm(tear=random.Random(1))
    nvm[PAGE - 10 : PAGE + 20] = bytes(30)  # two pages
    assert nvm.power.steps == 2 and nvm[PAGE - 10 : PAGE + 20] == bytes(30) and nvm.erases == 0


@pytest.mark.parametrize("seed", range(20))
def test_a_cut_page_program_sets_some_of_the_bits_it_was_asked_for_and_no_other(seed):
    old = bytes([0xFF] * 40 + [0xF0] * 8 + [0xFF] * (SIZE - 48))
    nvm = FlashNvm(old, power=Power(cut_at=0), tear=random.Random(seed))
    wanted = bytes([0x0F, 0x55, 0x00, 0xAA] * 5)
    with pytest.raises(PowerCut):
        nvm[48:68] = wanted
    after = nvm.data
    assert after[:48] == old[:48] and after[68:] == old[68:]  # nothing outside the write
    for got, want in zip(after[48:68], wanted):
        assert got & want == want  # a bit meant to stay 1 stayed 1 (programming only clears)
    asked = set(zeros(bytes(48) + wanted)) - set(range(48 * 8))
    done = set(zeros(after[:68])) - set(range(48 * 8))
    assert done <= asked


@pytest.mark.parametrize("seed", range(10))
def test_a_cut_erase_leaves_the_sector_half_erased_bit_by_bit(seed):
    old = b"\x00" + bytes(random.Random(seed).getrandbits(8) for _ in range(SIZE - 1))
    nvm = FlashNvm(old, power=Power(cut_at=0), tear=random.Random(seed + 100))
    with pytest.raises(PowerCut):
        nvm[0:1] = b"\xff"  # 1 -> ... needs an erase first (the byte is not blank)
    after = nvm.data
    assert all(a | o == a for a, o in zip(after, old))  # only 0 -> 1, as an erase does
    changed = sum(a != o for a, o in zip(after, old))
    assert 0 < changed < SIZE and after != bytes([0xFF]) * SIZE


def test_without_tears_a_cut_is_between_bytes_as_before():
    nvm = FlashNvm(power=Power(cut_at=3))
    with pytest.raises(PowerCut):
        nvm[0:8] = bytes(8)
    assert nvm.data[:8] == bytes(3) + b"\xff" * 5
