"""Exact cover with multiplicities (Knuth's MCC, his DLX3): a primary item covered between u
and v times. Algorithm M in the dlx and bitset engines against brute force over every subset
of options, Knuth's examples, the DLX3 text grammar beside the JSON field, the engine rules,
the library and subtree splitting."""

from __future__ import annotations

import itertools
import random
from math import comb
from typing import Any

import pytest

import pysolver
from pysolver import api, parallel
from pysolver.engines import bitset, dlx
from pysolver.engines.cover import ExactCoverProblem, search, split
from pysolver.engines.trace import replay
from pysolver.kinds import exact_cover
from pysolver.kinds.polyomino import build_problem
from pysolver.protocol import SolveError

# Knuth's example from DLX3's introduction: its unique solution is options 1, 3 and 4.
KNUTH_DLX3 = (
    "| A simple example of color controls\n"
    "A B 2:3|C | X Y\n"
    "A B X:0 Y:0\n"
    "A C X:1 Y:1\n"
    "C X:0\n"
    "B X:1\n"
    "C Y:1\n"
)


def brute_force(problem: ExactCoverProblem) -> list[list[int]]:
    """Every set of options meeting the multiplicities and the colour rules, sorted. Options
    without a primary item are never chosen (the search branches on primary items only)."""
    bounds = problem.multiplicities or [(1, 1)] * problem.primary
    usable = [o for o, items in enumerate(problem.options) if min(items) < problem.primary]
    found = []
    for size in range(len(usable) + 1):
        for subset in itertools.combinations(usable, size):
            times = [0] * problem.items
            colours: dict[int, set[int]] = {}
            for option in subset:
                for position, item in enumerate(problem.options[option]):
                    times[item] += 1
                    colour = problem.colours[option][position] if problem.colours else 0
                    colours.setdefault(item, set()).add(colour)
            primary_ok = all(low <= times[item] <= high for item, (low, high) in enumerate(bounds))
            secondary_ok = all(
                times[item] <= 1 or (0 not in colours[item] and len(colours[item]) == 1)
                for item in range(problem.primary, problem.items)
            )
            if primary_ok and secondary_ok:
                found.append(list(subset))
    return sorted(found)


def random_problem(rng: random.Random) -> ExactCoverProblem:
    """A small problem: 1-4 primary items with random (u, v), 0-2 secondary items, often
    coloured, and up to 9 options."""
    primary = rng.randint(1, 4)
    secondary = rng.randint(0, 2)
    items = primary + secondary
    options = []
    colours = []
    for _ in range(rng.randint(0, 9)):
        option = rng.sample(range(items), rng.randint(1, items))
        options.append(option)
        colours.append(
            [
                rng.choice((0, 1, 2)) if item >= primary and rng.random() < 0.6 else 0
                for item in option
            ]
        )
    multiplicities = []
    for _ in range(primary):
        high = rng.randint(1, 3)
        multiplicities.append((rng.randint(0, high), high))
    coloured = any(any(row) for row in colours)
    return ExactCoverProblem(
        primary, secondary, options, colours if coloured else None, multiplicities=multiplicities
    )


RANDOM_PROBLEMS = [random_problem(random.Random(seed)) for seed in range(300)]


ENGINES_WITH_M = ["dlx", "bitset"]


@pytest.mark.parametrize("engine", ENGINES_WITH_M)
def test_algorithm_m_finds_every_set_once_as_brute_force_does(engine: str) -> None:
    solutions_seen = 0
    coloured = 0
    for problem in RANDOM_PROBLEMS:
        expected = brute_force(problem)
        result = search(problem, engine, limit=None)
        assert result.count == len(expected), problem
        assert sorted(result.solutions) == expected, problem  # so no set comes twice
        assert result.complete
        solutions_seen += result.count
        coloured += problem.colours is not None
    # The instances are not all empty or all uncoloured: the comparison says something.
    assert solutions_seen > 300
    assert coloured > 100


def test_bitset_walks_dlx_tree_in_its_order() -> None:
    # The same Algorithm M tree: the same solutions in the same order, the same node count,
    # and stopping at a limit at the same place.
    for problem in RANDOM_PROBLEMS:
        on_links = search(problem, "dlx", limit=None)
        on_masks = search(problem, "bitset", limit=None)
        assert on_masks.solutions == on_links.solutions, problem
        assert on_masks.stats["nodes"] == on_links.stats["nodes"], problem
        if on_links.count > 2:
            first_two = search(problem, "bitset", limit=2)
            assert first_two.solutions == on_links.solutions[:2] and not first_two.complete


@pytest.mark.parametrize("engine", ENGINES_WITH_M)
def test_random_order_and_counting_find_the_same_sets(engine: str) -> None:
    for seed, problem in enumerate(RANDOM_PROBLEMS[:100]):
        expected = brute_force(problem)
        shuffled = search(problem, engine, limit=None, rng=random.Random(seed))
        assert sorted(shuffled.solutions) == expected
        counted = search(problem, engine, limit=None, keep_solutions=False)
        assert counted.count == len(expected)


@pytest.mark.parametrize("engine", ENGINES_WITH_M)
def test_limit_stops_the_walk(engine: str) -> None:
    problem = ExactCoverProblem(1, 0, [[0]] * 6, multiplicities=[(1, 6)])
    assert search(problem, engine, limit=None).count == 2**6 - 1  # every non-empty subset...
    problem = ExactCoverProblem(1, 0, [[0]] * 6, multiplicities=[(0, 6)])
    assert search(problem, engine, limit=None).solutions[-1] == []  # ... and the empty one
    problem = ExactCoverProblem(2, 0, [[0]] * 6 + [[1]], multiplicities=[(0, 6), (1, 1)])
    assert search(problem, engine, limit=None).count == 2**6
    stopped = search(problem, engine, limit=5)
    assert (stopped.count, stopped.complete, len(stopped.solutions)) == (5, False, 5)


def test_knuths_dlx3_example() -> None:
    response = pysolver.solve(
        {"kind": "exact_cover", "mode": "solve", "limit": 2, "puzzle": {"text": KNUTH_DLX3}}
    )
    assert response["solutions"] == [[1, 3, 4]]
    assert response["complete"] and response["engine"] == "bitset"  # the faster Algorithm M
    on_links = pysolver.solve(
        {"kind": "exact_cover", "limit": 2, "engine": "dlx", "puzzle": {"text": KNUTH_DLX3}}
    )
    assert on_links["solutions"] == [[1, 3, 4]] and on_links["engine"] == "dlx"
    assert response["colors"] == [{"X": "1", "Y": "1"}]


def test_knuths_bricks_choose_two_of_four_and_three_of_five() -> None:
    # DLX3's MDANCE example: two independent items taking 2 of 4 and 3 of 5 options.
    options = [["a"]] * 4 + [["b"]] * 5
    assert pysolver.count(options, multiplicities={"a": 2, "b": 3}) == comb(4, 2) * comb(5, 3)
    # Knuth's "total solutions": an unconstrained item (0 to at least its options) lets every
    # subset of its options in, each subset counted once.
    assert pysolver.count(options, multiplicities={"a": (0, 4), "b": 3}) == 2**4 * comb(5, 3)
    assert pysolver.count(options, multiplicities={"a": (1, 2), "b": (0, 1)}) == (4 + 6) * 6


def test_plain_items_take_the_plain_walk() -> None:
    # All multiplicities 1: the problem has none, and dlx walks Algorithm X as before.
    problem = exact_cover.parse_puzzle({"text": "1|a 1:1|b\na b\na\nb\n"})
    assert problem.multiplicities is None
    assert search(problem, "dlx", limit=None).solutions == [[0], [1, 2]]


# ---------------------------------------------------------------- the text grammar and JSON


@pytest.mark.parametrize(
    ("text", "json_puzzle"),
    [
        (KNUTH_DLX3, None),
        (
            "2|a 0:3|b c\na b\nb c\na\na b\nc\n",
            {
                "items": ["a", "b", "c"],
                "options": [["a", "b"], ["b", "c"], ["a"], ["a", "b"], ["c"]],
                "multiplicities": {"a": [2, 2], "b": [0, 3]},
            },
        ),
        (
            "0:2|p q | x\np x:A\nq x:A\np q\n",
            {
                "items": ["p", "q"],
                "secondary": ["x"],
                "options": [["p", "x:A"], ["q", "x:A"], ["p", "q"]],
                "multiplicities": {"p": [0, 2]},
            },
        ),
    ],
)
def test_text_and_json_agree_and_round_trip(text: str, json_puzzle: dict[str, Any] | None) -> None:
    from_text = exact_cover.parse_named({"text": text})
    if json_puzzle is not None:
        from_json = exact_cover.parse_named(json_puzzle)
        assert from_json[1] == from_text[1]
        assert from_json[0].options == from_text[0].options
        assert from_json[0].multiplicities == from_text[0].multiplicities
        rewritten = exact_cover.parse_named({"text": exact_cover.knuth_text(json_puzzle)})
        assert rewritten[0] == from_json[0]
        counts = [
            pysolver.solve({"kind": "exact_cover", "mode": "count", "puzzle": puzzle})["count"]
            for puzzle in ({"text": text}, json_puzzle)
        ]
        assert counts[0] == counts[1] == len(brute_force(from_text[0]))


@pytest.mark.parametrize(
    ("puzzle", "path", "words"),
    [
        ({"text": "2:1|a\na\n"}, "puzzle.text", "line 1: the multiplicity of item 'a' has u = 2"),
        ({"text": "0|a\na\n"}, "puzzle.text", "upper bound 0"),
        ({"text": "x:1|a\na\n"}, "puzzle.text", "not an item with a multiplicity"),
        ({"text": "1|\na\n"}, "puzzle.text", "not an item with a multiplicity"),
        ({"text": "1|2|a\na\n"}, "puzzle.text", "not an item with a multiplicity"),
        ({"text": "a | 2|x\na x\n"}, "puzzle.text", "item 'x' is secondary"),
        ({"text": "9999999|a\na\n"}, "puzzle.text", "beyond the limit"),
        ({"text": "a\n\n2|a\n"}, "puzzle.text", "line 3: '2|a' contains '|'"),
        ({"text": "a\na\n", "multiplicities": {"a": [1, 2]}}, "puzzle.multiplicities", "u:v|A"),
        (
            {"items": ["a"], "options": [["a"]], "multiplicities": {"a": [3, 2]}},
            "puzzle.multiplicities.a",
            "write u <= v",
        ),
        (
            {"items": ["a"], "options": [["a"]], "multiplicities": {"a": [1, True]}},
            "puzzle.multiplicities.a",
            "two integers [u, v]",
        ),
        (
            {"items": ["a"], "options": [["a"]], "multiplicities": {"a": [-1, 2]}},
            "puzzle.multiplicities.a",
            "negative",
        ),
        (
            {"items": ["a"], "options": [["a"]], "multiplicities": {"a": [0, 10**9]}},
            "puzzle.multiplicities.a",
            "the limit is 200,000",
        ),
        (
            {
                "items": ["a"],
                "secondary": ["x"],
                "options": [["a"]],
                "multiplicities": {"x": [1, 1]},
            },
            "puzzle.multiplicities.x",
            "only primary items take multiplicities",
        ),
        (
            {"items": ["a"], "options": [["a"]], "multiplicities": {"b": [1, 1]}},
            "puzzle.multiplicities.b",
            "not a declared primary item",
        ),
        (
            {"items": ["a"], "options": [["a"]], "multiplicities": [1, 1]},
            "puzzle.multiplicities",
            "must be an object",
        ),
    ],
)
def test_written_wrong(puzzle: dict[str, Any], path: str, words: str) -> None:
    with pytest.raises(SolveError) as raised:
        exact_cover.parse_puzzle(puzzle)
    assert raised.value.code == "invalid_puzzle"
    assert raised.value.path == path
    assert words in raised.value.message


def test_problem_checks_its_multiplicities() -> None:
    with pytest.raises(ValueError, match="one \\(u, v\\) pair per primary item"):
        ExactCoverProblem(2, 0, [[0]], multiplicities=[(1, 1)])
    with pytest.raises(ValueError, match="u <= v"):
        ExactCoverProblem(1, 0, [[0]], multiplicities=[(2, 1)])


# ---------------------------------------------------------------- engines, modes, jobs


def request(**fields: Any) -> dict[str, Any]:
    return {"kind": "exact_cover", "puzzle": {"text": KNUTH_DLX3}, **fields}


@pytest.mark.parametrize("engine", ["memo"])
def test_other_engines_refuse_in_one_sentence(engine: str) -> None:
    response = pysolver.solve(request(mode="count", engine=engine))
    assert response["error"]["code"] == "invalid_request"
    assert response["error"]["path"] == "engine"
    assert "does not take multiplicities; use bitset or dlx" in response["error"]["message"]
    with pytest.raises(ValueError, match="does not take multiplicities"):
        search(exact_cover.parse_puzzle({"text": KNUTH_DLX3}), engine)


@pytest.mark.parametrize("mode", ["solve", "count", "random", "trace"])
def test_bitset_is_the_default_and_answers_as_dlx(mode: str) -> None:
    puzzle = {"text": exact_cover.knuth_text(JOBS_PUZZLE)}
    one = {"kind": "exact_cover", "mode": mode, "limit": None, "seed": 3, "puzzle": puzzle}
    default = pysolver.solve(one)
    on_links = pysolver.solve(dict(one, engine="dlx"))
    assert default["engine"] == "bitset" and on_links["engine"] == "dlx"
    assert on_links["count"] == default["count"] == 35
    # Random order draws its own shuffle per engine; the sets are the same.
    assert sorted(on_links["solutions"]) == sorted(default["solutions"])
    if mode != "random":
        assert on_links["solutions"] == default["solutions"]
    # A whole count never goes to memo, which refuses multiplicities.
    assert pysolver.solve(dict(one, mode="count"))["engine"] == "bitset"


def test_trace_records_algorithm_m() -> None:
    response = pysolver.solve(request(mode="trace", limit=None))
    assert response["solutions"] == [[1, 3, 4]] and response["complete"]
    steps = response["steps"]
    assert replay(steps) == [[{"option": 1}, {"option": 3}, {"option": 4}]]
    assert [step["type"] for step in steps[:4]] == ["choose", "try", "choose", "backtrack"]
    # Option 0 leaves C (2 to 3 times) one option: too few, said so.
    assert "too few options left" in steps[2]["text"]
    # Every set of a larger problem, traced, is what the plain walk finds, in its order.
    puzzle = {"text": exact_cover.knuth_text(JOBS_PUZZLE)}
    traced = pysolver.solve(
        {
            "kind": "exact_cover",
            "mode": "trace",
            "limit": None,
            "max_steps": 10_000,
            "puzzle": puzzle,
        }
    )
    solved = pysolver.solve({"kind": "exact_cover", "limit": None, "puzzle": puzzle})
    assert traced["solutions"] == solved["solutions"] and traced["count"] == 35
    boards = replay(traced["steps"])
    assert [sorted(place["option"] for place in board) for board in boards] == solved["solutions"]
    cut = pysolver.solve(request(mode="trace", limit=None, max_steps=3))
    assert cut["truncated"] and not cut["complete"] and len(cut["steps"]) == 3


def test_random_mode_gives_distinct_sets() -> None:
    puzzle = {"items": ["a", "b"], "options": [["a"], ["a", "b"], ["b"], ["a"]]}
    puzzle["multiplicities"] = {"a": [1, 2], "b": [0, 1]}
    every = pysolver.solve(
        {"kind": "exact_cover", "mode": "solve", "limit": None, "puzzle": puzzle}
    )
    drawn = pysolver.solve(
        {"kind": "exact_cover", "mode": "random", "limit": 100, "seed": 4, "puzzle": puzzle}
    )
    assert sorted(drawn["solutions"]) == sorted(every["solutions"])
    expected = brute_force(exact_cover.parse_puzzle(puzzle))
    assert sorted(every["solutions"]) == expected
    assert len(every["solutions"]) == every["count"] == 9


@pytest.mark.parametrize("engine", ENGINES_WITH_M)
def test_subtrees_follow_the_serial_tree(engine: str) -> None:
    for problem in RANDOM_PROBLEMS[:150]:
        serial = search(problem, engine, limit=None).solutions
        pieces = split(problem, 4)
        joined = []
        for subtree in pieces.subtrees:
            joined += search(problem, engine, limit=None, path=subtree.path).solutions
        assert joined == serial, problem


JOBS_PUZZLE = {
    "items": ["A", "B", "C", "D"],
    "secondary": ["x"],
    "options": [
        ["A", "B"],
        ["A", "C"],
        ["B", "D"],
        ["C", "D", "x:1"],
        ["A", "D"],
        ["B", "C", "x:1"],
        ["A"],
        ["D", "x:2"],
        ["C"],
    ],
    "multiplicities": {"A": [1, 2], "D": [0, 2], "C": [2, 3]},
}


@pytest.mark.parametrize("engine", ENGINES_WITH_M)
@pytest.mark.parametrize("mode", ["count", "solve"])
def test_jobs_2_answers_as_serial(mode: str, engine: str) -> None:
    one = {
        "kind": "exact_cover",
        "mode": mode,
        "limit": None,
        "engine": engine,
        "puzzle": JOBS_PUZZLE,
    }
    serial = api.solve(one)
    split_answer = api.solve(dict(one, jobs=2), runner=parallel.InlineRunner(api.answer_task))
    assert split_answer["parallel"]["tasks"] > 1
    assert split_answer["engine"] == serial["engine"] == engine
    assert split_answer["count"] == serial["count"] == 35
    assert split_answer["solutions"] == serial["solutions"]
    problem = exact_cover.parse_puzzle(JOBS_PUZZLE)
    assert serial["count"] == len(brute_force(problem))


def test_null_branch_paths() -> None:
    # A path step [i] is the null branch of item i; anything else there is refused.
    problem = exact_cover.parse_puzzle(JOBS_PUZZLE)
    paths = [subtree.path for subtree in split(problem, 16).subtrees]
    assert any(isinstance(step, list) for path in paths for step in path)
    bad = api.solve(
        {
            "kind": "exact_cover",
            "mode": "count",
            "puzzle": JOBS_PUZZLE,
            "subtree": {"branch": 0, "path": [[3]]},
        }
    )
    assert bad["error"]["path"] == "subtree.path[0]"


# ---------------------------------------------------------------- the library


def test_library_covers_and_count() -> None:
    options = [["a", "x:1"], ["a", "x:1"], ["a", "x:2"], ["b"]]
    multiplicities = {"a": (1, 2)}
    found = list(pysolver.covers(options, ["a", "b"], ["x"], multiplicities=multiplicities))
    problem = exact_cover.parse_puzzle(
        exact_cover_json := pysolver.library.exact_cover_puzzle(
            options, ["a", "b"], ["x"], multiplicities
        )
    )
    assert exact_cover_json["multiplicities"] == {"a": [1, 2]}
    assert sorted(found) == brute_force(problem) == [[0, 1, 3], [0, 3], [1, 3], [2, 3]]
    assert pysolver.count(options, ["a", "b"], ["x"], multiplicities=multiplicities) == 4
    walk = pysolver.covers(options, ["a", "b"], ["x"], multiplicities=multiplicities)
    assert next(walk) == found[0]
    walk.close()  # leaves the search at once


def test_dlx_walk_keeps_its_name() -> None:
    # Other modules (the library, estimates) read dlx's walk and links by these names.
    assert callable(dlx.walk) and callable(dlx.search) and callable(dlx.links_bytes)


def test_progress_and_cancel_reach_algorithm_m() -> None:
    # 2^40 sets: far too many to count; the cancel hook stops the walk, progress reports it.
    reports: list[dict[str, Any]] = []
    checks = []

    def cancel() -> bool:
        checks.append(1)
        return len(checks) > 3

    response = pysolver.solve(
        {
            "kind": "exact_cover",
            "mode": "count",
            "limit": None,
            "puzzle": {"items": ["a"], "options": [["a"]] * 40, "multiplicities": {"a": [0, 40]}},
        },
        progress=reports.append,
        cancel=cancel,
    )
    assert response["cancelled"] and not response["complete"]
    assert 0 < response["count"] < 2**40
    assert reports and reports[-1]["solutions"] == response["count"]


def test_the_memory_rule_moves_multiplicities_only_to_an_engine_with_algorithm_m(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # bitset (the default) over the budget: the search moves to dlx (Algorithm M on links),
    # never to memo; both over it: refused (too_large).
    monkeypatch.setattr(bitset, "estimated_bytes", lambda problem: 10**15)
    moved = pysolver.solve(request(mode="count"))
    assert moved["engine"] == "dlx" and moved["count"] == 1
    monkeypatch.setattr(dlx, "estimated_bytes", lambda problem: 10**15)
    response = pysolver.solve(request(mode="count"))
    assert response["error"]["code"] == "too_large"


def test_bitset_budget_counts_the_counters_of_every_level() -> None:
    # The masks alone would not grow with the items' bounds; Algorithm M's levels do.
    options = [[0, 1]] * 40
    few = ExactCoverProblem(2, 0, options, multiplicities=[(0, 1), (0, 1)])
    many = ExactCoverProblem(2, 0, options, multiplicities=[(0, 40), (0, 40)])
    assert bitset.estimated_bytes(few) < bitset.estimated_bytes(many)
    wide = ExactCoverProblem(200, 0, [list(range(200))] * 40, multiplicities=[(0, 40)] * 200)
    # 41 + 200 levels, each holding 200 bounds and 200 active items at least.
    assert bitset.estimated_bytes(wide) > 241 * 2 * 200 * 8


@pytest.mark.parametrize("engine", ENGINES_WITH_M)
def test_at_most_once_as_0_to_1_matches_secondary_items(engine: str) -> None:
    # Tilings of a 3x5 board by distinct pentominoes: the pieces as primary items covered 0 or
    # 1 times (Algorithm M) or as secondary items (Algorithm X) give the same sets of options.
    whole = build_problem({"board": ["." * 10] * 6, "pieces": ["pentominoes"]}, "all")
    assert whole.item_cells is not None
    cells = [item for item, (r, c) in enumerate(whole.item_cells) if r < 3 and c < 5]
    pieces = list(range(len(whole.item_cells), whole.primary))
    number = {item: n for n, item in enumerate(cells + pieces)}
    options = [
        [number[item] for item in option]
        for option in whole.options
        if all(item in number for item in option)
    ]
    bounds = [(1, 1)] * len(cells) + [(0, 1)] * len(pieces)
    with_m = search(
        ExactCoverProblem(len(number), 0, options, multiplicities=bounds), engine, limit=None
    )
    with_x = search(ExactCoverProblem(len(cells), len(pieces), options), "dlx", limit=None)
    assert with_m.count == with_x.count > 0
    assert sorted(with_m.solutions) == sorted(with_x.solutions)


@pytest.mark.slow
def test_the_listing_cap_weighs_a_solution_by_its_options() -> None:
    # 0:1500|a over 1,500 options [a]: a solution may hold all 1,500. The cap once took each
    # for one option (0:3000|a, limit 100,000: 10,000 listed, 642 MB and 168 MB of JSON).
    from pysolver import budget

    options = 1500
    response = pysolver.solve(
        {
            "kind": "exact_cover",
            "limit": 400,
            "puzzle": {"text": f"0:{options}|a\n" + "a\n" * options},
        }
    )
    assert response["count"] == 400 and response["solutions_truncated"] is True
    listed = response["solutions"]
    assert 0 < len(listed) < 400
    assert len(pysolver.protocol.dumps(response)) <= budget.MAX_LISTED_CHARS
    # Each listed set is a distinct set of distinct options (any subset is a solution here).
    assert len({tuple(solution) for solution in listed}) == len(listed)
    assert all(solution == sorted(set(solution)) for solution in listed)
    assert max(map(len, listed)) == options


# 20,000 options of 5 over many items, each covered 0 to 5 times: M3 scans every item at every
# node, and 512 nodes between checks took 3 s (dlx on 5,000 items; bitset, whose masks of
# 20,000 options fit the budget on 1,000).
@pytest.mark.parametrize(("engine", "items"), [("dlx", 5_000), ("bitset", 1_000)])
def test_a_cancel_stops_algorithm_m_on_many_items_within_a_third_of_a_second(
    engine: str, items: int
) -> None:
    from time import perf_counter

    names = [f"i{k}" for k in range(items)]
    puzzle = {
        "items": names,
        "multiplicities": {name: [0, 5] for name in names},
        "options": [[names[(start * 7 + k) % items] for k in range(5)] for start in range(20_000)],
    }
    started = perf_counter()
    response = pysolver.solve(
        {"kind": "exact_cover", "mode": "count", "engine": engine, "puzzle": puzzle},
        cancel=lambda: perf_counter() - started > 0.3,
    )
    assert perf_counter() - started < 1.3
    assert response["cancelled"] is True and response["complete"] is False, response


@pytest.mark.slow
def test_a_cancel_stops_algorithm_m_on_a_long_column_within_half_a_second() -> None:
    # 0:3000|a over 3,000 options [a]: each node lists a column of up to 3,000 options (ms),
    # and the 512 nodes between checks took 5 s. Cancelled after the build (0.1 s).
    from time import perf_counter

    puzzle = {"items": ["a"], "multiplicities": {"a": [0, 3000]}, "options": [["a"]] * 3000}
    started = perf_counter()
    response = pysolver.solve(
        # A limit no second reaches: 400 solutions took 0.9 s on a quiet machine.
        {"kind": "exact_cover", "engine": "bitset", "limit": 100_000, "puzzle": puzzle},
        cancel=lambda: perf_counter() - started > 1.0,
    )
    assert perf_counter() - started < 1.5
    assert response["cancelled"] is True and response["complete"] is False, response
