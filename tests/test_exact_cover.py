"""The exact cover contract of both engines, and the ``exact_cover`` kind through solve()."""

from __future__ import annotations

import random

import pytest

import pysolver
from pysolver.engines import singles, trace
from pysolver.engines.cover import ENGINES, ExactCoverProblem, search
from pysolver.engines.monitor import Monitor
from pysolver.kinds import exact_cover as kind

# ---------------------------------------------------------------- engine contract


class RecordingMonitor(Monitor):
    """Records Knuth's raw estimate at every check and what finish was told."""

    def __init__(self, cancel_after: int | None = None) -> None:
        super().__init__()
        self.estimates: list[float] = []
        self.checks = 0
        self.cancel_after = cancel_after
        self.finished: tuple[int, int, bool] | None = None

    def check(self, nodes, solutions, fraction=None):
        self.checks += 1
        self.estimates.append(fraction())
        return self.cancel_after is not None and self.checks >= self.cancel_after

    def finish(self, nodes, solutions, complete):
        self.finished = (nodes, solutions, complete)


@pytest.mark.parametrize("engine", ENGINES)
def test_first_solution_then_limit_then_all(engine, queens):
    problem = queens(8)
    first = search(problem, engine, limit=1)
    assert first.count == 1 and len(first.solutions) == 1 and not first.complete
    five = search(problem, engine, limit=5)
    assert five.solutions[0] == first.solutions[0] and len(five.solutions) == 5
    every = search(problem, engine)
    assert every.count == 92 and every.complete and len(every.solutions) == 92
    assert every.solutions[:5] == five.solutions
    for solution in every.solutions:
        assert solution == sorted(solution)
        covered = [item for index in solution for item in problem.options[index]]
        assert len(covered) == len(set(covered))  # nothing covered twice
        assert set(range(problem.primary)) <= set(covered)


@pytest.mark.parametrize("engine", ENGINES)
def test_limit_reached_is_never_complete(engine, queens):
    # Exactly 2 solutions: a limit of 2 stops at the second without proving there is no third.
    problem = queens(4)
    assert search(problem, engine, limit=2).complete is False
    assert search(problem, engine, limit=3).complete is True
    assert search(problem, engine, limit=3).count == 2


@pytest.mark.parametrize("engine", ENGINES)
def test_count_without_keeping_solutions(engine, queens):
    result = search(queens(10), engine, keep_solutions=False)
    assert (result.count, result.solutions, result.complete) == (724, [], True)
    capped = search(queens(10), engine, keep_solutions=False, limit=100)
    assert (capped.count, capped.complete) == (100, False)


@pytest.mark.parametrize("engine", ENGINES)
def test_seeded_order_is_reproducible_and_seed_dependent(engine, queens):
    problem = queens(8)
    firsts = set()
    for seed in range(8):
        once = search(problem, engine, limit=3, rng=random.Random(seed))
        again = search(problem, engine, limit=3, rng=random.Random(seed))
        assert once.solutions == again.solutions
        firsts.add(tuple(once.solutions[0]))
    assert len(firsts) > 1
    shuffled = search(problem, engine, rng=random.Random(1))
    plain = search(problem, engine)
    assert shuffled.solutions != plain.solutions
    assert sorted(shuffled.solutions) == sorted(plain.solutions)


@pytest.mark.parametrize("engine", ENGINES)
def test_progress_estimate_is_monotone_and_finishes_at_one(engine, queens):
    monitor = RecordingMonitor()
    result = search(queens(10), engine, keep_solutions=False, monitor=monitor)
    assert monitor.checks >= 10
    assert all(0 <= value < 1 for value in monitor.estimates)
    assert monitor.estimates == sorted(monitor.estimates)
    assert monitor.estimates[-1] > 0.5
    assert monitor.finished == (result.stats["nodes"], 724, True)


@pytest.mark.parametrize("engine", ENGINES)
def test_cancel_stops_cleanly(engine, queens):
    monitor = RecordingMonitor(cancel_after=3)
    result = search(queens(10), engine, monitor=monitor)
    assert result.cancelled and not result.complete
    assert 0 < result.count < 724 and len(result.solutions) == result.count
    assert monitor.checks == 3
    assert monitor.finished is not None and monitor.finished[2] is False


@pytest.mark.parametrize("engine", ENGINES)
def test_primary_item_without_options_means_no_solution(engine):
    problem = ExactCoverProblem(3, 0, [[0, 1], [0], [1]])
    result = search(problem, engine)
    assert (result.count, result.complete, result.solutions) == (0, True, [])


@pytest.mark.parametrize("engine", ENGINES)
def test_no_primary_items_has_the_empty_solution(engine):
    problem = ExactCoverProblem(0, 2, [[0], [1], [0, 1]])
    result = search(problem, engine)
    assert (result.count, result.complete, result.solutions) == (1, True, [[]])
    assert search(ExactCoverProblem(0, 0, []), engine).solutions == [[]]


@pytest.mark.parametrize("engine", ENGINES)
def test_secondary_items_at_most_once(engine):
    # Items a b primary, x secondary: {a x} with {b x} would use x twice.
    problem = ExactCoverProblem(2, 1, [[0, 2], [1, 2], [1], [0]])
    assert sorted(search(problem, engine).solutions) == [[0, 2], [1, 3], [2, 3]]


# Knuth's small XCC example (TAOCP 7.2.2.1): items p q r | x y; options p q x y:A,
# p r x:A y, p x:B, q x:A, r y:B. Its one solution is {p r x:A y} with {q x:A}.
P, Q, R, X, Y = range(5)
KNUTH_COLOURED = ExactCoverProblem(
    3,
    2,
    [[P, Q, X, Y], [P, R, X, Y], [P, X], [Q, X], [R, Y]],
    [[0, 0, 0, 1], [0, 0, 1, 0], [0, 2], [0, 1], [0, 2]],
)


@pytest.mark.parametrize("engine", [*ENGINES, "singles"])
def test_knuths_coloured_example(engine):
    if engine == "singles":
        result = singles.search(KNUTH_COLOURED)
    else:
        result = search(KNUTH_COLOURED, engine)
    assert (result.solutions, result.count, result.complete) == ([[1, 3]], 1, True)


@pytest.mark.parametrize("engine", ENGINES)
def test_modes_progress_and_cancel_with_colours(engine, all_word_squares):
    problem = all_word_squares(3, 3)  # 3 ** 9 = 19,683 solutions
    monitor = RecordingMonitor()
    counted = search(problem, engine, keep_solutions=False, monitor=monitor)
    assert (counted.count, counted.complete) == (3**9, True)
    assert monitor.checks >= 10 and monitor.estimates == sorted(monitor.estimates)
    assert monitor.finished == (counted.stats["nodes"], 3**9, True)
    first = search(problem, engine, limit=5)
    assert (len(first.solutions), first.complete) == (5, False)
    shuffled = search(problem, engine, limit=5, rng=random.Random(3))
    assert shuffled.solutions == search(problem, engine, limit=5, rng=random.Random(3)).solutions
    assert shuffled.solutions != first.solutions
    stopped = search(problem, engine, monitor=RecordingMonitor(cancel_after=3))
    assert stopped.cancelled and not stopped.complete
    assert 0 < stopped.count < 3**9 and len(stopped.solutions) == stopped.count


def test_coloured_reference_shares_colours(coloured_reference_covers):
    # The random instances the engines are checked on must exercise the feature: many covers
    # where several options share a secondary item in one colour.
    shared = 0
    for problem, covers in coloured_reference_covers:
        for cover in covers:
            secondary_uses = [
                item
                for index in cover
                for item in problem.options[index]
                if item >= problem.primary
            ]
            shared += len(secondary_uses) > len(set(secondary_uses))
    assert shared >= 100


@pytest.mark.parametrize(
    ("options", "colours", "words"),
    [
        ([[0, 1]], [[0]], "one colour per item"),
        ([[0, 1]], [[0, 0], [0]], "one list per option"),
        ([[0, 1]], [[1, 0]], "only secondary items"),
        ([[0, 1]], [[0, -1]], "positive"),
    ],
)
def test_malformed_colours_are_a_programming_error(options, colours, words):
    with pytest.raises(ValueError, match=words):
        ExactCoverProblem(1, 1, options, colours)


def test_unknown_engine_name_is_a_programming_error(queens):
    with pytest.raises(ValueError, match="unknown exact cover engine"):
        search(queens(4), "nope")


# ---------------------------------------------------------------- the kind through solve()

TRIANGLE = {"items": ["a", "b", "c"], "options": [["a", "b"], ["b", "c"], ["c"], ["a"], ["b"]]}


def request(puzzle, **fields):
    return {"kind": "exact_cover", "puzzle": puzzle, **fields}


def test_default_engine_is_the_first_and_both_agree():
    assert kind.ENGINES[0] == "bitset"
    default = pysolver.solve(request(TRIANGLE, limit=10))
    assert default["ok"] and default["engine"] == "bitset"
    for engine in kind.ENGINES:
        response = pysolver.solve(request(TRIANGLE, limit=10, engine=engine))
        assert response["engine"] == engine
        assert sorted(response["solutions"]) == [[0, 2], [1, 3], [2, 3, 4]]
        assert response["complete"] is True and response["count"] == 3
        assert response["stats"]["nodes"] > 0


def test_modes_map_to_the_search():
    solved = pysolver.solve(request(TRIANGLE))
    assert solved["count"] == 1 and solved["complete"] is False
    counted = pysolver.solve(request(TRIANGLE, mode="count"))
    assert (counted["count"], counted["solutions"], counted["complete"]) == (3, [], True)
    capped = pysolver.solve(request(TRIANGLE, mode="count", limit=2))
    assert (capped["count"], capped["complete"]) == (2, False)
    drawn = [
        pysolver.solve(request(TRIANGLE, mode="random", limit=3, seed=seed)) for seed in range(6)
    ]
    assert all(sorted(d["solutions"]) == [[0, 2], [1, 3], [2, 3, 4]] for d in drawn)
    assert len({tuple(map(tuple, d["solutions"])) for d in drawn}) > 1
    again = pysolver.solve(request(TRIANGLE, mode="random", limit=3, seed=4))
    assert again["solutions"] == drawn[4]["solutions"] and again["seed"] == 4


KNUTH_TEXT = """\
| A tiny problem in Knuth's DLX1 format, with secondary items.
| Comment lines start with a bar; blank lines are ignored.
a b c | x y

a x
b c
  | an indented comment
a b y
c y
c x
"""


def test_knuth_text_with_comments_and_secondary_items():
    response = pysolver.solve(request({"text": KNUTH_TEXT}, mode="solve", limit=10))
    assert response["ok"], response
    # {a x}{b c}; {a b y}{c x}; {a x}+{c y} misses b; {a b y}+{c y} uses y twice.
    assert sorted(response["solutions"]) == [[0, 1], [2, 4]]
    assert response["complete"] is True
    same = {
        "items": ["a", "b", "c"],
        "secondary": ["x", "y"],
        "options": [["a", "x"], ["b", "c"], ["a", "b", "y"], ["c", "y"], ["c", "x"]],
    }
    assert pysolver.solve(request(same, limit=10))["solutions"] == response["solutions"]


def test_knuth_text_without_secondary_items():
    response = pysolver.solve(request({"text": "p q\np\nq\np q\n"}, mode="count"))
    assert response["count"] == 2


KNUTH_COLOURED_TEXT = """\
| Knuth's small example of exact covering with colours (TAOCP 7.2.2.1).
p q r | x y
p q x y:A
p r x:A y
p x:B
q x:A
r y:B
"""


def test_knuths_coloured_example_in_text_and_json():
    response = pysolver.solve(request({"text": KNUTH_COLOURED_TEXT}, limit=10))
    assert response["ok"], response
    assert (response["solutions"], response["complete"]) == ([[1, 3]], True)
    # x got colour A from both options; y was used once, uncoloured: not reported.
    assert response["colors"] == [{"x": "A"}]
    same = {
        "items": ["p", "q", "r"],
        "secondary": ["x", "y"],
        "options": [["p", "q", "x", "y:A"], ["p", "r", "x:A", "y"], ["p", "x:B"], ["q", "x:A"]]
        + [["r", "y:B"]],
    }
    for engine in kind.ENGINES:
        answer = pysolver.solve(request(same, limit=10, engine=engine))
        assert (answer["solutions"], answer["colors"]) == ([[1, 3]], [{"x": "A"}])


# Two cells x y that the options of a and b may share when they agree on the colour; c takes
# y alone (uncoloured) or nothing.
SHARED_LETTERS = {
    "items": ["a", "b", "c"],
    "secondary": ["x", "y"],
    "options": [
        ["a", "x:red", "y:blue"],
        ["a", "x:blue"],
        ["b", "x:red"],
        ["b", "x:blue", "y:blue"],
        ["b", "y:blue"],
        ["c", "y"],
        ["c"],
        ["b", "x:blue"],
    ],
}


def test_colours_are_reported_per_solution_in_every_mode():
    listed = pysolver.solve(request(SHARED_LETTERS, limit=10))
    solutions = listed["solutions"]
    # {b y:blue} never goes with {c y}: y coloured in one, uncoloured in the other.
    assert sorted(solutions) == [[0, 2, 6], [0, 4, 6], [1, 3, 6], [1, 4, 6], [1, 5, 7], [1, 6, 7]]
    colors = dict(zip(map(tuple, solutions), listed["colors"], strict=True))
    assert colors[0, 2, 6] == {"x": "red", "y": "blue"}
    assert colors[1, 3, 6] == {"x": "blue", "y": "blue"}
    assert colors[1, 5, 7] == {"x": "blue"}  # y taken uncoloured by {c y}: not reported
    assert colors[1, 6, 7] == {"x": "blue"}
    assert len(listed["colors"]) == len(solutions)
    counted = pysolver.solve(request(SHARED_LETTERS, mode="count"))
    assert (counted["count"], counted["solutions"], counted["colors"]) == (6, [], [])
    drawn = pysolver.solve(request(SHARED_LETTERS, mode="random", limit=6, seed=3))
    assert sorted(drawn["solutions"]) == sorted(solutions)
    assert drawn["colors"] == [colors[tuple(solution)] for solution in drawn["solutions"]]
    for engine in kind.ENGINES:
        answer = pysolver.solve(request(SHARED_LETTERS, limit=10, engine=engine))
        assert (answer["solutions"], answer["colors"]) == (solutions, listed["colors"])


def test_uncoloured_answers_have_no_colors_field():
    assert "colors" not in pysolver.solve(request(TRIANGLE))
    assert "colors" not in pysolver.solve(request({"text": KNUTH_TEXT}))


def test_progress_and_cancel_through_solve(monkeypatch):
    monkeypatch.setattr(Monitor, "interval", 0.0)
    names = [f"r{row}" for row in range(8)] + [f"c{col}" for col in range(8)]
    options = [[f"r{r}", f"c{c}", f"d{r + c}", f"e{r - c}"] for r in range(8) for c in range(8)]
    secondary = [f"d{k}" for k in range(15)] + [f"e{k}" for k in range(-7, 8)]
    queens = {"items": names, "secondary": secondary, "options": options}
    reports = []
    response = pysolver.solve(request(queens, mode="count"), progress=reports.append)
    assert response["count"] == 92
    fractions = [report["fraction"] for report in reports]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and reports[-1]["done"]
    assert len(reports) >= 2
    polls = []

    def cancel_on_second_poll():
        polls.append(1)
        return len(polls) >= 2

    stopped = pysolver.solve(request(queens, mode="count"), cancel=cancel_on_second_poll)
    assert stopped["ok"] and stopped["cancelled"] is True and stopped["complete"] is False
    assert stopped["count"] < 92


def test_bitset_gives_way_to_dlx_above_its_size(monkeypatch):
    monkeypatch.setattr(kind, "BITSET_MAX_OPTIONS", 3)
    automatic = pysolver.solve(request(TRIANGLE, mode="count"))
    assert automatic["engine"] == "dlx" and automatic["count"] == 3
    asked = pysolver.solve(request(TRIANGLE, engine="bitset"))
    assert asked["error"]["code"] == "too_large" and "dlx" in asked["error"]["message"]


# ---------------------------------------------------------------- bad puzzles

BAD_PUZZLES = [
    ("not an object", ["a"], "puzzle", "must be an object"),
    ("neither form", {"rows": 3}, "puzzle", "needs"),
    ("both forms", {"text": "a\na", **TRIANGLE}, "puzzle.text", "not both"),
    ("items only", {"items": ["a"]}, "puzzle.options", "no options"),
    ("options only", {"options": [["a"]]}, "puzzle.items", "no items"),
    ("items not a list", {"items": "abc", "options": []}, "puzzle.items", "must be a list"),
    ("empty items", {"items": [], "options": []}, "puzzle.items", "no primary items"),
    ("only secondary", {"items": [], "secondary": ["x"], "options": []}, "puzzle.items", ""),
    ("duplicate item", {"items": ["a", "b", "a"], "options": []}, "puzzle.items[2]", "twice"),
    (
        "primary and secondary share a name",
        {"items": ["a"], "secondary": ["b", "a"], "options": []},
        "puzzle.secondary[1]",
        "twice",
    ),
    ("integer item name", {"items": ["a", 7], "options": []}, "puzzle.items[1]", "string"),
    (
        "secondary not a list",
        {"items": ["a"], "secondary": "x", "options": []},
        "puzzle.secondary",
        "list",
    ),
    ("options not a list", {"items": ["a"], "options": {"a": 1}}, "puzzle.options", "list"),
    ("option not a list", {"items": ["a"], "options": [["a"], "a"]}, "puzzle.options[1]", "list"),
    (
        "unknown item",
        {"items": ["a", "b"], "options": [["a"], ["b"], ["a"], ["b", "z"]]},
        "puzzle.options[3][1]",
        "'z', which is not a declared item",
    ),
    (
        "repeated item in option",
        {"items": ["a", "b"], "options": [["a", "b", "a"]]},
        "puzzle.options[0][2]",
        "twice",
    ),
    ("empty option", {"items": ["a"], "options": [["a"], []]}, "puzzle.options[1]", "empty"),
    ("non-string entry", {"items": ["a"], "options": [["a", None]]}, "puzzle.options[0][1]", ""),
    ("text not a string", {"text": ["a b"]}, "puzzle.text", "string"),
    ("text of comments", {"text": "| nothing\n\n| here\n"}, "puzzle.text", "no items line"),
    ("two bars", {"text": "a | b | c\na\n"}, "puzzle.text", "line 1"),
    ("bar in an option", {"text": "a b\na | b\n"}, "puzzle.text", "line 2"),
    ("bar inside a name", {"text": "a b|c\na\n"}, "puzzle.text", "line 1"),
    ("text unknown item", {"text": "| c\na b\na\nb q\n"}, "puzzle.text", "line 4"),
    ("text duplicate item", {"text": "\na b | a\na\n"}, "puzzle.text", "line 2"),
    ("text repeated item", {"text": "a b\na b a\n"}, "puzzle.text", "line 2"),
    # Colours (Knuth's x:A).
    ("colour on a primary item", {"text": "p | x\np:A x\n"}, "puzzle.text", "primary item 'p'"),
    (
        "JSON colour on a primary item",
        {"items": ["p"], "secondary": ["x"], "options": [["x", "p:A"]]},
        "puzzle.options[0][1]",
        "only secondary items can have colours",
    ),
    ("empty colour", {"text": "p | x\np x:\n"}, "puzzle.text", "two non-empty names"),
    ("empty item", {"text": "p | x\np :A\n"}, "puzzle.text", "two non-empty names"),
    ("a lone colon", {"text": "p | x\np :\n"}, "puzzle.text", "line 2 names ':'"),
    ("two colons", {"text": "p | x\np x:A:B\n"}, "puzzle.text", "one ':'"),
    (
        "JSON two colons",
        {"items": ["p"], "secondary": ["x"], "options": [["p", "x:A:B"]]},
        "puzzle.options[0][1]",
        "item:colour",
    ),
    (
        "coloured item not declared",
        {"text": "p | x\np z:A\n"},
        "puzzle.text",
        "'z', which is not a declared item (declare it",
    ),
    ("item and coloured item", {"text": "p | x\np x x:A\n"}, "puzzle.text", "item 'x' twice"),
    (
        "two colours of one item",
        {"items": ["p"], "secondary": ["x"], "options": [["p", "x:A", "x:B"]]},
        "puzzle.options[0][2]",
        "item 'x' twice",
    ),
    (
        "one colour twice",
        {"items": ["p"], "secondary": ["x"], "options": [["p", "x:A", "x:A"]]},
        "puzzle.options[0][2]",
        "item 'x' twice",
    ),
    ("colon in a declared item", {"text": "p | x:A\np\n"}, "puzzle.text", "line 1: item 'x:A'"),
    (
        "JSON colon in a primary item",
        {"items": ["p:q"], "options": [["p:q"]]},
        "puzzle.items[0]",
        "contains ':'",
    ),
    (
        "JSON colon in a secondary item",
        {"items": ["p"], "secondary": ["x:A"], "options": [["p"]]},
        "puzzle.secondary[0]",
        "contains ':'",
    ),
]


@pytest.mark.parametrize(
    ("puzzle", "path", "words"),
    [case[1:] for case in BAD_PUZZLES],
    ids=[case[0] for case in BAD_PUZZLES],
)
def test_bad_puzzles_are_reported_with_a_path(puzzle, path, words):
    response = pysolver.solve(request(puzzle))
    assert response["ok"] is False
    assert response["error"]["code"] == "invalid_puzzle"
    assert response["error"]["path"] == path
    assert words in response["error"]["message"]


def test_text_whose_items_line_starts_with_a_bar_has_no_primary_items():
    # A leading bar makes the line a comment (as in Knuth's format): no items line at all.
    response = pysolver.solve(request({"text": "| a b\n"}))
    assert "no items line" in response["error"]["message"]


@pytest.mark.parametrize(
    ("cap", "value", "puzzle", "path"),
    [
        ("MAX_ITEMS", 2, {"items": ["a", "b"], "secondary": ["x"], "options": []}, "puzzle.items"),
        ("MAX_OPTIONS", 2, {"items": ["a"], "options": [["a"]] * 3}, "puzzle.options"),
        ("MAX_ENTRIES", 3, {"items": ["a", "b"], "options": [["a", "b"]] * 2}, "puzzle.options"),
        ("MAX_OPTIONS", 2, {"text": "a\na\na\na\n"}, "puzzle.options"),
        ("MAX_ENTRIES", 3, {"text": "a b\na b\na b\n"}, "puzzle.options"),
        ("MAX_ITEMS", 2, {"text": "a b | c\na\n"}, "puzzle.items"),
    ],
)
def test_size_caps(monkeypatch, cap, value, puzzle, path):
    monkeypatch.setattr(kind, cap, value)
    response = pysolver.solve(request(puzzle))
    assert response["error"]["code"] == "too_large"
    assert response["error"]["path"] == path
    assert f"{value:,}" in response["error"]["message"]


def test_unknown_engine():
    response = pysolver.solve(request(TRIANGLE, engine="simplex"))
    assert response["error"]["code"] == "unknown_engine"
    assert "bitset" in response["error"]["message"] and "dlx" in response["error"]["message"]


# ---------------------------------------------------------------- trace mode


@pytest.mark.parametrize("engine", kind.ENGINES)
def test_trace_replays_to_the_solutions_and_names_items(engine: str) -> None:
    text = "a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n"
    response = pysolver.solve(
        {
            "kind": "exact_cover",
            "mode": "trace",
            "limit": None,
            "engine": engine,
            "puzzle": {"text": text},
        }
    )
    assert response["ok"] and response["complete"] and not response["truncated"]
    assert response["solutions"] == [[0, 3, 4]]
    boards = trace.replay(response["steps"])
    assert [sorted(place["option"] for place in board) for board in boards] == [[0, 3, 4]]
    first = response["steps"][0]
    assert first == {
        "type": "choose",
        "depth": 0,
        "item": "a",
        "options": 2,
        "text": "Item 'a' has the fewest options (2): try each in turn",
    }
    assert (
        response["stats"]["nodes"]
        == pysolver.solve(
            {"kind": "exact_cover", "limit": None, "engine": engine, "puzzle": {"text": text}}
        )["stats"]["nodes"]
    )


def test_heatmap_is_refused_for_exact_cover() -> None:
    response = pysolver.solve(
        {
            "kind": "exact_cover",
            "mode": "count",
            "heatmap": True,
            "puzzle": {"items": ["a"], "options": [["a"]]},
        }
    )
    assert not response["ok"]
    assert response["error"]["path"] == "heatmap"
    assert "polyomino, sudoku, shikaku" in response["error"]["message"]


def test_trace_of_a_coloured_puzzle_reports_its_colours():
    text = "p q r | x y\np q x y:A\np r x:A y\np x:B\nq x:A\nr y:B\n"
    response = pysolver.solve(
        {"kind": "exact_cover", "mode": "trace", "limit": 10, "puzzle": {"text": text}}
    )
    assert response["solutions"] == [[1, 3]]
    assert response["colors"] == [{"x": "A"}]
    (board,) = trace.replay(response["steps"])
    assert sorted(place["option"] for place in board) == [1, 3]


def test_whole_counts_without_secondary_items_default_to_memo():
    # memo remembers remaining-item sets: faster whole counts, unless secondary items make
    # them rarely repeat (see kinds/exact_cover._count_engine); every choice counts the same.
    counted = pysolver.solve(request(TRIANGLE, mode="count"))
    assert counted["engine"] == "memo" and counted["count"] == 3
    assert pysolver.solve(request(TRIANGLE, mode="count", limit=2))["engine"] == "bitset"
    assert pysolver.solve(request(TRIANGLE, mode="count", engine="bitset"))["engine"] == "bitset"
    with_secondary = {**TRIANGLE, "secondary": ["x"]}
    secondary_count = pysolver.solve(request(with_secondary, mode="count"))
    assert secondary_count["engine"] == "bitset" and secondary_count["count"] == 3
