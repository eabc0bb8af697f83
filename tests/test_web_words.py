"""The page's words (web/ui/words.js) in Node.js: the time left of a long search moves steadily
while Knuth's estimate of the fraction done jumps, and follows a real change."""

from __future__ import annotations

import math
import re

from tests.node_page import require_node, run_module

require_node("the page's words")

# Reads [[fraction, seconds], ...] on stdin; writes the words shown after each report.
RUNNER = """
import { createTimeLeft } from "./web/ui/words.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const timeLeft = createTimeLeft();
process.stdout.write(JSON.stringify(JSON.parse(input).map(([f, s]) => timeLeft(f, s))));
"""


def seconds_in(words: str) -> float:
    """'about 2 min left' -> 120; 'about 40 s left' -> 40."""
    match = re.fullmatch(r"about (\d+) (s|min) left", words)
    assert match, words
    return int(match.group(1)) * (60 if match.group(2) == "min" else 1)


def test_time_left_is_smoothed_over_a_jumpy_estimate() -> None:
    # A 3-minute count whose estimate of the fraction done swings by a factor of three from one
    # report to the next (the plain figure would say 1 to 6 minutes in turn).
    total = 180.0
    reports = [
        (min(0.99, t / total * (0.5 + (math.sin(t) + 1) * 0.75)), float(t)) for t in range(1, 150)
    ]
    shown = run_module(RUNNER, reports)
    assert shown[0].startswith("about"), shown[0]
    later = [seconds_in(words) + t for words, (_, t) in zip(shown[40:], reports[40:], strict=True)]
    plain = [t / f for f, t in reports[40:]]
    # The total the words imply stays within a third of the truth; the plain one does not.
    assert all(120 <= implied <= 240 for implied in later), later
    assert max(plain) / min(plain) > 2.5


def test_time_left_follows_a_real_change_and_waits_for_an_estimate() -> None:
    steady = [(t / 60, float(t)) for t in range(1, 20)]
    # Then the search turns out to be four times longer than it looked.
    slower = [(19 / 60 + (t - 19) / 240, float(t)) for t in range(20, 60)]
    shown = run_module(RUNNER, [(0.0, 5.0), (0.5, 0.5), *steady, *slower])
    assert shown[:2] == ["", ""]
    assert seconds_in(shown[2 + 10]) == 49  # 11 s of a 60 s search
    last_fraction, last_seconds = slower[-1]
    truth = last_seconds / last_fraction - last_seconds
    # Before the change it said under 45 s; 40 s later it is within a quarter of the new truth.
    assert seconds_in(shown[2 + 18]) < 45 < truth
    assert abs(seconds_in(shown[-1]) - truth) < 0.25 * truth, (shown[-1], truth)
