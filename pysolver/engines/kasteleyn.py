"""Exact domino tiling counts of full m x n rectangles: Kasteleyn's product, in integers.

Kasteleyn (1961) and Temperley-Fisher give the number of domino tilings of an m x n rectangle as

    T(m, n) = prod_{j=1..ceil(m/2)} prod_{k=1..ceil(n/2)} (y_j(m) + y_k(n)),
    y_j(s) = 4 cos^2(pi j / (s + 1)).

The cosines are never evaluated. For one side s, the numbers y_j(s), j = 1..ceil(s/2), are the
roots of an integer polynomial. With the Fibonacci polynomials Q_0 = 1, Q_1 = u,
Q_{s+1} = u Q_s + Q_{s-1}, the eigenvalues lambda_j = 2 cos(pi j / (s+1)) of the path on s
vertices satisfy prod_{j=1..s} (lambda_j^2 + x) = Q_s(sqrt x)^2. The lambda_j come in pairs
+-lambda (plus a single 0 when s is odd), so

    H_s(x) = prod_{j=1..ceil(s/2)} (x + y_j(s)) = x^(s mod 2) G_s(x),

where Q_s(u) = u^(s mod 2) G_s(u^2); eliminating the odd step gives the integer recurrence
G_{s+2} = (x + 2) G_s - G_{s-2} with G_0 = 1, G_2 = x + 1, G_1 = 1, G_3 = x + 2.
The y_k(n) are then the roots of the monic R_n(x) = (-1)^deg H_n(-x), and

    T(m, n) = prod_{R_n(z) = 0} H_m(z) = Res(R_n, H_m),

a resultant of two integer polynomials, computed with the subresultant algorithm (Collins;
Cohen, "A Course in Computational Algebraic Number Theory", algorithm 3.3.7): integer
arithmetic only, exact divisions only (big ones by a 2-adic inverse, see ``_divide_exactly``).

The roots y_j(s) = 2 + 2 cos(2 pi j / (s + 1)) group into Galois orbits by the order e of the
root of unity exp(2 pi i j / (s + 1)), e a divisor of s + 1; so R_s splits into integer factors
Psi_e (like x^N - 1 into cyclotomic polynomials) and T is the product of the small resultants
Res(Psi_b, Psi_a(-x)) over the orbit pairs: much cheaper when s + 1 is composite.

Cost: O(d^2) operations on integers as long as the answer, d = the largest orbit degree
(<= ceil(side / 2)). 200 x 200 (5,040 digits; 201 = 3 * 67) takes a fraction of a second in
CPython; 196 x 196 (197 is prime) about three times as long. Sizes are capped by the caller
(``pysolver.kinds.domino``), not here.
"""

from __future__ import annotations

from collections.abc import Callable
from math import gcd
from typing import Any

from pysolver.engines.monitor import Monitor

# How the page names this engine (see pysolver.facts): a menu title and one sentence.
TITLE = "Kasteleyn's formula"
SUMMARY = "Counts tilings of a full rectangle by Kasteleyn's exact product."
# The only protocol modes it serves (facts.json tells the page).
MODES = ("count",)

Poly = list[int]  # coefficients, constant term first, no trailing zeros (the zero poly is [])


def _trim(poly: Poly) -> Poly:
    while poly and poly[-1] == 0:
        poly.pop()
    return poly


def side_polynomial(side: int) -> Poly:
    """H_side(x) = prod_{j=1..ceil(side/2)} (x + 4 cos^2(pi j / (side + 1))), in integers."""
    if side < 1:
        raise ValueError("side must be at least 1")
    # G_{s-2} and G_s of the parity of ``side``.
    if side % 2 == 0:
        before, current, s = [1], [1], 0  # G_{-2} = 1 makes G_2 = (x + 2) G_0 - G_{-2} = x + 1
    else:
        before, current, s = [0], [1], 1  # G_{-1} = 0 makes G_3 = x + 2 from G_1 = 1
    while s < side:
        # G_{s+2} = (x + 2) G_s - G_{s-2}
        following = [0] * (len(current) + 1)
        for i, coefficient in enumerate(current):
            following[i] += 2 * coefficient
            following[i + 1] += coefficient
        for i, coefficient in enumerate(before):
            following[i] -= coefficient
        before, current, s = current, _trim(following), s + 2
    if side % 2 == 1:
        current = [0, *current]  # the root y = 0 of the middle cosine
    return current


def _reflect(poly: Poly) -> Poly:
    """(-1)^deg p(-x): the monic polynomial whose roots are the negated roots of monic p."""
    degree = len(poly) - 1
    return [c if (degree - i) % 2 == 0 else -c for i, c in enumerate(poly)]


def _content(poly: Poly) -> int:
    g = 0
    for c in poly:
        g = gcd(g, c)
        if g == 1:
            break
    return g


def _pseudo_remainder(a: Poly, b: Poly) -> Poly:
    """R with lc(b)^(deg a - deg b + 1) a = b q + r, deg r < deg b."""
    lead_b = b[-1]
    degree_b = len(b) - 1
    remainder = list(a)
    unused = len(a) - len(b) + 1  # powers of lc(b) still owed
    while remainder and len(remainder) - 1 >= degree_b:
        lead = remainder[-1]
        offset = len(remainder) - 1 - degree_b
        remainder = [lead_b * c for c in remainder]
        for i, c in enumerate(b):
            remainder[offset + i] -= lead * c
        remainder.pop()  # the leading term cancelled exactly
        _trim(remainder)
        unused -= 1
    if unused:
        factor = lead_b**unused
        remainder = [factor * c for c in remainder]
    return remainder


# Below this many bits a plain // is as fast as the 2-adic route.
_SCHOOLBOOK_BITS = 3000


def _inverse_mod_power_of_two(odd: int, bits: int) -> int:
    """odd^-1 mod 2^bits by Newton's iteration x <- x (2 - odd x), doubling the bits each time."""
    inverse, known = 1, 1  # every odd number is its own inverse mod 2
    while known < bits:
        known = min(2 * known, bits)
        mask = (1 << known) - 1
        inverse = (inverse * (2 - (odd & mask) * inverse)) & mask
    return inverse


def _divide_exactly(values: list[int], divisor: int) -> list[int]:
    """[v // divisor for v in values], every division known to be exact.

    CPython divides big integers in quadratic time but multiplies them with Karatsuba, so for big
    operands multiply by the inverse of the divisor modulo 2^k instead (Jebelean's exact
    division): an exact quotient q = v / d with |q| < 2^(k-1) equals v * d^-1 mod 2^k, read as a
    signed k-bit number. The divisor's factors of 2 are shifted out first (they divide every v).
    """
    if divisor < 0:
        values, divisor = [-v for v in values], -divisor
    widest = max((abs(v).bit_length() for v in values), default=0)
    if widest < _SCHOOLBOOK_BITS or divisor == 1:
        return [v // divisor for v in values]
    twos = (divisor & -divisor).bit_length() - 1
    odd = divisor >> twos
    bits = widest - twos - odd.bit_length() + 3  # room for the quotient and its sign
    modulus_mask = (1 << bits) - 1
    half = 1 << (bits - 1)
    inverse = _inverse_mod_power_of_two(odd, bits)
    quotients = []
    for v in values:
        q = (((v >> twos) & modulus_mask) * inverse) & modulus_mask
        quotients.append(q - (1 << bits) if q >= half else q)
    return quotients


def resultant(
    a: Poly,
    b: Poly,
    monitor: Monitor | None = None,
    fraction: Callable[[], float] | None = None,
    work: dict[str, int] | None = None,
) -> int | None:
    """Res(a, b) of integer polynomials, exactly (subresultant algorithm).

    Returns None when ``monitor`` asked to stop; ``work["nodes"]`` counts the steps and
    ``work["resultants"]`` the calls. Res(a, b) = lc(a)^deg b * prod b(alpha) over
    the roots alpha of a.
    """
    if work is not None:
        work["resultants"] = work.get("resultants", 0) + 1
    a, b = _trim(list(a)), _trim(list(b))
    if not a or not b:
        return 0
    content_a, content_b = _content(a), _content(b)
    a = [c // content_a for c in a]
    b = [c // content_b for c in b]
    sign = 1
    # int ** int is typed loosely (a negative exponent gives a float); these are all >= 0.
    scale: int = content_a ** (len(b) - 1) * content_b ** (len(a) - 1)
    if len(a) < len(b):
        a, b = b, a
        if (len(a) - 1) % 2 == 1 and (len(b) - 1) % 2 == 1:
            sign = -sign
    g = h = 1
    steps = 0
    while len(b) > 1:
        steps += 1
        if work is not None:
            work["nodes"] = work.get("nodes", 0) + 1
        if monitor is not None and monitor.check(steps, 0, fraction):
            return None
        degree_a, degree_b = len(a) - 1, len(b) - 1
        delta = degree_a - degree_b
        if degree_a % 2 == 1 and degree_b % 2 == 1:
            sign = -sign
        remainder = _pseudo_remainder(a, b)
        if not remainder:
            return 0
        divisor = g * h**delta
        a, b = b, _divide_exactly(remainder, divisor)
        g = a[-1]
        # h <- h^(1 - delta) g^delta, an exact division for delta >= 1
        h = g**delta // h ** (delta - 1) if delta >= 1 else h
    degree_a = len(a) - 1
    h = b[-1] ** degree_a // h ** (degree_a - 1) if degree_a >= 1 else 1
    return sign * scale * h


def _exact_quotient(dividend: Poly, monic: Poly) -> Poly:
    """dividend / monic when monic divides it exactly (integer long division)."""
    remainder = list(dividend)
    degree = len(monic) - 1
    quotient = [0] * (len(dividend) - degree)
    for top in range(len(remainder) - 1, degree - 1, -1):
        lead = remainder[top]
        quotient[top - degree] = lead
        if lead:
            offset = top - degree
            for i in range(degree + 1):
                remainder[offset + i] -= lead * monic[i]
    if any(remainder):
        raise ArithmeticError("inexact polynomial division")
    return quotient


def _divisors(number: int) -> list[int]:
    return [d for d in range(1, number + 1) if number % d == 0]


def orbit_polynomials(side: int) -> dict[int, Poly]:
    """The monic minimal polynomials of y = 2 + 2 cos(2 pi / e) for each divisor e >= 2 of side + 1.

    The roots y_j(side) = 2 + 2 cos(2 pi j / (side + 1)) fall into Galois orbits by the order e of
    the root of unity exp(2 pi i j / (side + 1)); R_side is the product of these polynomials, just
    as x^N - 1 is the product of cyclotomic polynomials. Splitting R_side this way turns one big
    resultant into several smaller ones, which is much cheaper when side + 1 is composite.
    """
    found: dict[int, Poly] = {}
    for order in _divisors(side + 1)[1:]:
        polynomial = _reflect(side_polynomial(order - 1))  # roots y_j(order - 1), all orbits
        for smaller, factor in found.items():
            if order % smaller == 0:
                polynomial = _exact_quotient(polynomial, factor)
        found[order] = polynomial
    return found


def rectangle_tilings(
    rows: int,
    cols: int,
    monitor: Monitor | None = None,
    stats: dict[str, Any] | None = None,
) -> int | None:
    """The number of domino tilings of a full rows x cols rectangle, exactly.

    T = Res(R_cols, H_rows) = prod over orbit pairs (a, b) of Res(Psi_b, Psi_a(-x)), with the
    orbit polynomials Psi of ``orbit_polynomials``. Returns None when ``monitor`` asked to stop.
    ``stats``, when given, receives "nodes" (subresultant steps) and "resultants".
    """
    work: dict[str, Any] = stats if stats is not None else {}
    work.update(nodes=0, resultants=0)
    if rows < 1 or cols < 1:
        raise ValueError("a rectangle needs at least one row and one column")
    if rows * cols % 2:
        return 0
    row_orbits = list(orbit_polynomials(rows).values())
    col_orbits = list(orbit_polynomials(cols).values())
    # Progress: the share of the work done, each resultant weighted by its degrees squared.
    weights = [(len(r) * len(c)) ** 2 for r in row_orbits for c in col_orbits]
    all_work = sum(weights)
    done = 0

    def fraction() -> float:
        return done / all_work

    total = 1
    pair = 0
    for row_factor in row_orbits:
        shifted = _reflect(row_factor)  # roots -y: evaluating it at z gives prod (z + y)
        for col_factor in col_orbits:
            value = resultant(col_factor, shifted, monitor, fraction, work)
            if value is None:
                return None
            # Every factor y + z is >= 0, so each resultant is a count, not its negative.
            total *= abs(value)
            done += weights[pair]
            pair += 1
    return total
