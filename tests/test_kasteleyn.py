"""The exact Kasteleyn count: known values, agreement with the profile DP, big sizes."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from pysolver.engines import kasteleyn
from pysolver.engines.monitor import Monitor
from pysolver.engines.profile_dp import count_tilings

KNOWN = {
    (2, 3): 3,
    (2, 11): 144,
    (4, 11): 51205,
    (3, 3): 0,
    (6, 6): 6728,
    (8, 8): 12988816,
    (10, 10): 258584046368,
    (12, 12): 53060477521960000,
    (14, 14): 112202208776036178000000,
    (16, 16): 2444888770250892795802079170816,
    # OEIS A004003
    (18, 18): 548943583215388338077567813208427340288,
    (20, 20): 1269984011256235834242602753102293934298576249856,
}


def full_rows(rows: int, cols: int) -> list[int]:
    return [(1 << cols) - 1] * rows


def sylvester_resultant(a: list[int], b: list[int]) -> int:
    """Res(a, b) as the determinant of the Sylvester matrix, by Gaussian elimination in Q."""
    m, n = len(a) - 1, len(b) - 1
    size = m + n
    matrix = []
    for i in range(n):
        row = [Fraction(0)] * size
        for j, c in enumerate(reversed(a)):
            row[i + j] = Fraction(c)
        matrix.append(row)
    for i in range(m):
        row = [Fraction(0)] * size
        for j, c in enumerate(reversed(b)):
            row[i + j] = Fraction(c)
        matrix.append(row)
    determinant = Fraction(1)
    for col in range(size):
        pivot = next((r for r in range(col, size) if matrix[r][col] != 0), None)
        if pivot is None:
            return 0
        if pivot != col:
            matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
            determinant = -determinant
        determinant *= matrix[col][col]
        for r in range(col + 1, size):
            factor = matrix[r][col] / matrix[col][col]
            if factor:
                for k in range(col, size):
                    matrix[r][k] -= factor * matrix[col][k]
    assert determinant.denominator == 1
    return int(determinant)


@pytest.mark.parametrize(("size", "expected"), sorted(KNOWN.items()))
def test_known_values(size: tuple[int, int], expected: int) -> None:
    rows, cols = size
    assert kasteleyn.rectangle_tilings(rows, cols) == expected
    assert kasteleyn.rectangle_tilings(cols, rows) == expected


def test_known_sequences() -> None:
    # OEIS A001835 (3 x 2n) and A005178 (4 x n).
    assert [kasteleyn.rectangle_tilings(3, 2 * n) for n in range(1, 8)] == [
        3,
        11,
        41,
        153,
        571,
        2131,
        7953,
    ]
    assert [kasteleyn.rectangle_tilings(4, n) for n in range(1, 9)] == [
        1,
        5,
        11,
        36,
        95,
        281,
        781,
        2245,
    ]
    assert [kasteleyn.rectangle_tilings(1, n) for n in range(1, 7)] == [0, 1, 0, 1, 0, 1]
    assert [kasteleyn.rectangle_tilings(2, n) for n in range(1, 9)] == [1, 2, 3, 5, 8, 13, 21, 34]


def test_formula_equals_profile_dp_on_every_rectangle_up_to_12x12() -> None:
    for rows in range(1, 13):
        for cols in range(rows, 13):
            assert kasteleyn.rectangle_tilings(rows, cols) == count_tilings(
                full_rows(cols, rows), rows
            ), (rows, cols)


@pytest.mark.parametrize(("rows", "cols"), [(5, 12), (7, 10), (9, 14), (13, 14), (15, 16)])
def test_formula_equals_profile_dp_on_odd_sides(rows: int, cols: int) -> None:
    assert kasteleyn.rectangle_tilings(rows, cols) == count_tilings(full_rows(cols, rows), rows)


def test_big_squares_have_the_right_length_and_shape() -> None:
    for side, digits in ((100, 1254), (200, 5040)):
        count = kasteleyn.rectangle_tilings(side, side)
        # Counting decimal digits through bit length avoids Python's int->str digit guard.
        assert 10 ** (digits - 1) <= count < 10**digits
        # T(2k, 2k) = 2^k * a^2 with a odd (Pachter 1997).
        half = side // 2
        assert count % 2**half == 0
        odd_part = count >> half
        root = math.isqrt(odd_part)
        assert root * root == odd_part and root % 2 == 1


def test_odd_side_is_consistent_both_ways() -> None:
    # 99 + 1 = 100 and 100 + 1 = 101 split into very different orbits: swapping the sides runs
    # different resultants that must agree.
    count = kasteleyn.rectangle_tilings(99, 100)
    assert count == kasteleyn.rectangle_tilings(100, 99)
    assert 10**1240 <= count < 10**1241
    assert kasteleyn.rectangle_tilings(99, 99) == 0


def test_side_polynomial_roots() -> None:
    for side in range(1, 12):
        poly = kasteleyn.side_polynomial(side)
        assert len(poly) - 1 == (side + 1) // 2
        assert poly[-1] == 1
        for j in range(1, (side + 1) // 2 + 1):
            root = -4 * math.cos(math.pi * j / (side + 1)) ** 2
            value = sum(c * root**i for i, c in enumerate(poly))
            assert abs(value) < 1e-6 * max(1.0, max(abs(c) for c in poly))


def test_orbit_polynomials_multiply_back() -> None:
    for side in range(1, 40):
        product = [1]
        for factor in kasteleyn.orbit_polynomials(side).values():
            out = [0] * (len(product) + len(factor) - 1)
            for i, x in enumerate(product):
                for j, y in enumerate(factor):
                    out[i + j] += x * y
            product = out
        assert product == kasteleyn._reflect(kasteleyn.side_polynomial(side))


def test_resultant_matches_sylvester_determinant() -> None:
    rng = random.Random(11)
    for _ in range(150):
        a = [rng.randint(-9, 9) for _ in range(rng.randint(1, 7))]
        b = [rng.randint(-9, 9) for _ in range(rng.randint(1, 7))]
        a[-1] = a[-1] or 1
        b[-1] = b[-1] or 2
        if rng.random() < 0.2:  # a common factor makes the resultant 0
            common = [rng.randint(-3, 3), 1]
            a = [
                sum(a[i - k] * common[k] for k in range(2) if 0 <= i - k < len(a))
                for i in range(len(a) + 1)
            ]
            b = [
                sum(b[i - k] * common[k] for k in range(2) if 0 <= i - k < len(b))
                for i in range(len(b) + 1)
            ]
        expected = sylvester_resultant(a, b) if len(a) > 1 or len(b) > 1 else 1
        assert kasteleyn.resultant(a, b) == expected, (a, b)


def test_resultant_with_big_coefficients_uses_exact_division() -> None:
    rng = random.Random(5)
    a = [rng.getrandbits(2000) - 2**1999 for _ in range(5)]
    b = [rng.getrandbits(2000) - 2**1999 for _ in range(4)]
    assert kasteleyn.resultant(a, b) == sylvester_resultant(a, b)


def test_divide_exactly_matches_floor_division() -> None:
    rng = random.Random(2)
    for _ in range(20):
        divisor = rng.getrandbits(3500) * (1 << rng.randint(0, 40)) * rng.choice((1, -1)) or 3
        values = [divisor * (rng.getrandbits(4000) - 2**3999) for _ in range(5)]
        assert kasteleyn._divide_exactly(values, divisor) == [v // divisor for v in values]


def test_cancel_stops_the_formula() -> None:
    monitor = Monitor(cancel=lambda: True)
    assert kasteleyn.rectangle_tilings(40, 40, monitor) is None
    assert monitor.cancelled


def test_stats_count_the_work() -> None:
    stats: dict[str, int] = {}
    kasteleyn.rectangle_tilings(30, 30, stats=stats)
    assert stats["resultants"] >= 1 and stats["nodes"] >= 1
