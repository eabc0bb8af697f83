"""The compiled walk of ``pysolver.engines.compiled``: Algorithm X over uint64 bit-mask arrays,
in numba (imported at the top: only ``compiled`` imports this module, and only when numba is
installed and wanted; the page never does).

One resumable function, ``walk``, runs both walks of the pure engines on the same tree:

- ``MODE_COUNT``: ``memo.count`` (memoised sub-board counts when ``R_MEMO_ON``, nodes down to
  ``R_STRIKE_DEPTH`` striking their dead options, weighted root orbits when ``R_ORBITS``) and,
  with neither memo nor strikes, ``bitset``'s whole count. Candidates are taken from the
  highest bit position down, as the pure walks take them, so node counts and memo hits agree.
- ``MODE_SEARCH``: ``bitset.search`` (solutions in option order, or shuffled), with a limit and
  solutions written to a buffer the caller drains.

The state lives in arrays the caller owns, so the walk can stop every ``R_QUOTA`` units of
work (the caller then checks its monitor: cancel, budget, progress), when the solution buffer
or the memo table needs the caller, and carry on where it stopped. Masks are rows of words,
one row per depth of the path being walked: ``live[d]`` the options live at its node at depth
``d``, ``items[d]`` and ``sizes[d]`` its ``F_WIDTH`` uncovered primary items (in item order)
and how many live options each has.

The walk indexes rows in place (``live[depth, w]``), never takes a row as a slice, and on its
hot paths (making a child, the memo's lookups and stores, a count's sums) calls no function
that takes an array: a slice is a new array object, and numba counts the references of a
callee's arrays (atomically) on entry and exit; a handful of those per node cost more than
the node's own work. Measured (the kernel's CPU seconds, best of 5, before -> after): 12 queens
0.070 -> 0.036, Langford n=11 0.155 -> 0.069, random 30x200 2-5 0.067 -> 0.049, 2-4 0.227 ->
0.179, 6x10 X fixed 0.222 -> 0.21 (same nodes and memo hits). Leaves of a count are not
handed to ``take_leaves`` either (only a search or a monitor wanting a recent solution needs
them).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

# The registers (``regs``, int64).
R_DEPTH = 0
R_PHASE = 1  # PHASE_BODY: the node at R_DEPTH is counted, its body is next; PHASE_NEXT: its
R_NODES = 2  # next branch; PHASE_DONE: the walk has ended
R_HITS = 3
R_FOUND = 4  # solutions found (weighted by the root orbit in count mode)
R_MEMO_LEN = 5
R_MEMO_CAP = 6
R_PROBE_AT = 7
R_STRUCK = 8
R_STATUS = 9
R_MASK_OPS = 10
R_SOLUTIONS = 11  # rows of the solution buffer in use
R_WANT_RECENT = 12
R_RECENT_LEN = 13
R_LIMIT = 14  # -1: none
R_KEEP = 15  # 1: keep solutions
R_KEPT = 16  # solutions kept so far
R_MAX_KEPT = 17  # -1: no cap
R_SHUFFLE = 18
R_SEED = 19  # -1: seeded already
R_MEMO_ON = 20
R_ORBITS = 21
R_SMALLEST_COVER = 22
R_STRIKE_DEPTH = 23
R_MODE = 24
R_QUOTA = 25  # nodes (entered, dead ends and leaves) between two returns
R_TOTAL = 26  # the count, when the walk has ended
R_MIN_HIT_SHARE = 27
R_HIT_PROBE = 28
R_STRIKE_SUBTREE = 29
R_TIGHTEST = 30  # items after the chosen one that the dead end check tries
R_TABLE_ROOM = 31  # memo entries the table takes before it must grow
R_WEIGHT = 32  # the weight of the root orbit being searched (1 without orbits)
R_SWEEP = 33  # 1: branch on the first uncovered item in root order (``memo.sweep_order``)
R_MEMO_ASK = 34  # 1: look sub-boards up (0 once the hit probe has turned the memo off)
R_SUBTREE_NODES = 35  # the nodes under the memo's entries (nested ones counted in each)
R_MIN_SAVED_QUARTERS = 36
REGISTERS = 37

# Per depth (``frames``, int64).
F_WIDTH = 1
F_LO = 2  # the words [F_LO, F_HI) hold every live bit of the node
F_HI = 3
F_COUNT = 4  # branches in ``order``
F_NEXT = 5  # the next of them to try
F_TOTAL = 6
F_CHOSEN = 7  # the bit position of the option chosen at this depth
F_TIGHT = 8  # F_TIGHT .. F_TIGHT + 7: rows of the tightest items after the chosen one
F_TIGHT_COUNT = 16
F_SIZE = 17
F_INDEX = 18
F_ENTERED = 19  # strikes: the node count when the last node at this depth was entered
F_SPENT = 20  # strikes: nodes spent under the earlier nodes at this depth
F_SUBTREES = 21  # strikes: how many
F_STRUCK_PATH = 22  # 1 when this node or one above it struck options (see ``walk``)
F_NODES_BEFORE = 23  # the node count just before this node was entered
F_HASH = 24  # ``hashed`` of this node's memo key (where the walk stores its count)
FIELDS = 25

MODE_COUNT = 0
MODE_SEARCH = 1
PHASE_BODY = 0
PHASE_NEXT = 1
PHASE_DONE = 2
# Why ``walk`` returned.
STATUS_DONE = 0
STATUS_QUOTA = 1  # R_QUOTA units of work done: check the monitor, then call again
STATUS_DRAIN = 2  # the solution buffer may not hold the next node's: drain it, call again
STATUS_GROW = 3  # the memo table is near its load limit: grow it, call again
STATUS_OVERFLOW = 4  # a count passed 2**63: the caller counts in Python instead
STATUS_LIMIT = 5  # the limit was reached

ONE = np.uint64(1)
ZERO = np.uint64(0)
M1 = np.uint64(0x5555555555555555)
M2 = np.uint64(0x3333333333333333)
M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
H01 = np.uint64(0x0101010101010101)
MIX = np.uint64(0x9E3779B97F4A7C15)
INT64_MAX = np.int64(0x7FFFFFFFFFFFFFFF)


@njit(cache=True, inline="always")
def popcount(x: np.uint64) -> np.int64:
    x = x - ((x >> ONE) & M1)
    x = (x & M2) + ((x >> np.uint64(2)) & M2)
    x = (x + (x >> np.uint64(4))) & M4
    return np.int64((x * H01) >> np.uint64(56))


@njit(cache=True, inline="always")
def top_bit(x: np.uint64) -> np.int64:
    """The index of the highest set bit of a nonzero word."""
    return np.int64(63 - leading_zeros(x))


@njit(cache=True, inline="always")
def low_bit(x: np.uint64) -> np.int64:
    """The index of the lowest set bit of a nonzero word."""
    return np.int64(trailing_zeros(x))


@njit(cache=True, inline="always")
def checked_add(a: np.int64, b: np.int64) -> np.int64:
    """a + b for counts (both >= 0); -1 past 2**63 - 1 (the caller flags ``STATUS_OVERFLOW``)."""
    if a > INT64_MAX - b:
        return np.int64(-1)
    return a + b


@njit(cache=True, inline="always")
def checked_mul(a: np.int64, b: np.int64) -> np.int64:
    """a * b for counts (both >= 0); -1 past 2**63 - 1."""
    if b and a > INT64_MAX // b:
        return np.int64(-1)
    return a * b


@njit(cache=True, inline="always")
def mix(h: np.uint64, word: np.uint64) -> np.uint64:
    """The memo key's hash so far, ``h``, with one more word of the key."""
    h = (h ^ word) * MIX
    return h ^ (h >> np.uint64(32))


@njit(cache=True, inline="always")
def hashed(h: np.uint64) -> np.int64:
    """A key's slot before the table's size is applied (``& (slots - 1)``): a product's upper
    bits depend on every bit below them, so the slot is taken there."""
    return np.int64((h * MIX) >> np.uint64(32))


@njit(cache=True)
def memo_slot(table: np.ndarray, keys: np.ndarray, row: np.int64) -> np.int64:
    """The slot of the key ``keys[row]`` (its first words, as many as the table's keys have) in
    the open-addressed table (a row per slot: the key's words, then its count + 1, 0 in an
    empty slot), or the empty slot where it would go. Keys are compared whole: they are exact.
    (Rows are indexed, not sliced: a slice is an array object whose references are counted.)"""
    slots = table.shape[0]
    words = table.shape[1] - 1
    h = ZERO
    for w in range(words):
        h = mix(h, keys[row, w])
    slot = hashed(h) & (slots - 1)
    while True:
        if table[slot, words] == ZERO:
            return slot
        same = True
        for w in range(words):
            if table[slot, w] != keys[row, w]:
                same = False
                break
        if same:
            return slot
        slot = (slot + 1) & (slots - 1)


@njit(cache=True)
def memo_rehash(old: np.ndarray, new: np.ndarray) -> None:
    words = old.shape[1] - 1
    for slot in range(old.shape[0]):
        if old[slot, words] != ZERO:
            to = memo_slot(new, old, slot)
            for w in range(words + 1):
                new[to, w] = old[slot, w]


@njit(cache=True)
def record(frames: np.ndarray, depth: np.int64, last: np.int64, row: np.ndarray) -> np.int64:
    """Write the options chosen down to ``depth`` (and ``last`` when >= 0), sorted, to ``row``
    (bit positions; its first entry is the length); return the length."""
    length = np.int64(0)
    for level in range(depth):
        row[1 + length] = frames[level, F_CHOSEN]
        length += 1
    if last >= 0:
        row[1 + length] = last
        length += 1
    for i in range(1, length):  # insertion sort: solutions are short
        value = row[1 + i]
        j = i - 1
        while j >= 0 and row[1 + j] > value:
            row[2 + j] = row[1 + j]
            j -= 1
        row[2 + j] = value
    row[0] = length
    return length


@njit(cache=True)
def row_size(
    live: np.ndarray, depth: np.int64, item_masks: np.ndarray, bands: np.ndarray, item: np.int64,
    lo: np.int64, hi: np.int64,
) -> np.int64:  # fmt: skip
    """How many options live at ``depth`` ``item`` has (its words only: its band within the
    node's)."""
    size = np.int64(0)
    for w in range(max(lo, bands[item, 0]), min(hi, bands[item, 1])):
        size += popcount(live[depth, w] & item_masks[item, w])
    return size


@njit(cache=True)
def strike_round(
    live: np.ndarray, items: np.ndarray, width: np.int64, lo: np.int64, hi: np.int64,
    item_masks: np.ndarray, bands: np.ndarray, compatible: np.ndarray,
) -> np.int64:  # fmt: skip
    """One round of ``memo.strike_dead_options`` at a node: the live options that leave some
    uncovered item without options (they conflict with every live option of it) leave
    ``live``; how many."""
    words = hi - lo
    union = np.zeros(words, np.uint64)
    dead = np.zeros(words, np.uint64)
    stranding = np.zeros(words, np.uint64)
    for i in range(width):
        item = items[i]
        for w in range(max(lo, bands[item, 0]), min(hi, bands[item, 1])):
            union[w - lo] |= live[w] & item_masks[item, w]
    for i in range(width):
        item = items[i]
        any_stranding = False
        for v in range(words):
            stranding[v] = union[v] & ~(live[lo + v] & item_masks[item, lo + v])
            if stranding[v] != ZERO:
                any_stranding = True
        w = min(hi, bands[item, 1]) - 1
        while any_stranding and w >= max(lo, bands[item, 0]):
            word = live[w] & item_masks[item, w]
            while word != ZERO and any_stranding:
                bit = top_bit(word)
                word ^= ONE << np.uint64(bit)
                position = w * 64 + bit
                any_stranding = False
                for v in range(words):
                    stranding[v] &= ~compatible[position, lo + v]
                    if stranding[v] != ZERO:
                        any_stranding = True
            w -= 1
        if any_stranding:
            for v in range(words):
                dead[v] |= stranding[v]
    struck = np.int64(0)
    for v in range(words):
        struck += popcount(dead[v])
        live[lo + v] &= ~dead[v]
    return struck


@njit(cache=True)
def take_leaves(
    regs: np.ndarray, frames: np.ndarray, live: np.ndarray, item_masks: np.ndarray,
    order: np.ndarray, solutions: np.ndarray, recent: np.ndarray, depth: np.int64,
    item: np.int64, lo: np.int64, hi: np.int64, taken: np.int64,
) -> None:  # fmt: skip
    """A last level (every live option of ``item`` covers all the items left): in search
    mode, keep the solutions of the ``taken`` first of them (option order, or shuffled), and
    hand the last one to a monitor that wants a recent solution."""
    searching = regs[R_MODE] == MODE_SEARCH
    keep = searching and regs[R_KEEP] != 0
    if not keep and not (searching and regs[R_SHUFFLE] != 0):
        if regs[R_WANT_RECENT] and taken > 0:
            for w in range(hi - 1, lo - 1, -1):
                word = live[depth, w] & item_masks[item, w]
                if word != ZERO:
                    regs[R_RECENT_LEN] = record(frames, depth, w * 64 + top_bit(word), recent)
                    regs[R_WANT_RECENT] = 0
                    break
        return
    n = 0
    for w in range(lo, hi):
        word = live[depth, w] & item_masks[item, w]
        while word != ZERO:
            order[depth, n] = w * 64 + low_bit(word)
            word &= word - ONE
            n += 1
    if regs[R_SHUFFLE] != 0:
        for i in range(n - 1, 0, -1):
            j = np.random.randint(0, i + 1)
            swap = order[depth, i]
            order[depth, i] = order[depth, j]
            order[depth, j] = swap
    for i in range(taken):
        if keep and (regs[R_MAX_KEPT] < 0 or regs[R_KEPT] < regs[R_MAX_KEPT]):
            record(frames, depth, order[depth, i], solutions[regs[R_SOLUTIONS]])
            regs[R_SOLUTIONS] += 1
            regs[R_KEPT] += 1
    if regs[R_WANT_RECENT] and taken > 0:
        regs[R_RECENT_LEN] = record(frames, depth, order[depth, taken - 1], recent)
        regs[R_WANT_RECENT] = 0


@njit(cache=True)
def walk(
    regs: np.ndarray,
    frames: np.ndarray,
    live: np.ndarray,
    items: np.ndarray,
    sizes: np.ndarray,
    order: np.ndarray,
    keys: np.ndarray,
    item_masks: np.ndarray,
    bands: np.ndarray,
    compatible: np.ndarray,
    covers: np.ndarray,
    root_weights: np.ndarray,
    memo: np.ndarray,
    solutions: np.ndarray,
    recent: np.ndarray,
) -> None:
    """Walk on from where the registers say until the walk ends or must return (R_STATUS).

    Per depth: ``live``, the options compatible with every choice above (words F_LO..F_HI
    hold every live bit); ``items``, the uncovered primary items in item order (F_WIDTH of
    them) and ``sizes``, how many live options each has. ``item_masks[i]``: the options of
    primary item ``i``, all within its words ``bands[i]``; ``compatible[p]``: the options
    compatible with the option at bit ``p``; ``covers[p]``: the items it covers (memo keys).
    ``root_weights``: with R_ORBITS, the weight of each branch of the root (whose ``order``
    the caller wrote)."""
    mode = regs[R_MODE]
    memo_on = regs[R_MEMO_ON] != 0
    memo_ask = memo_on and regs[R_MEMO_ASK] != 0
    smallest_cover = regs[R_SMALLEST_COVER]
    strike_depth = regs[R_STRIKE_DEPTH] if memo_on else 0
    orbits = regs[R_ORBITS] != 0
    limit = regs[R_LIMIT]
    keep = regs[R_KEEP] != 0
    shuffle = regs[R_SHUFFLE] != 0
    keep_best = regs[R_TIGHTEST] + 1
    key_words = keys.shape[1]
    slots = memo.shape[0]
    if regs[R_SEED] >= 0:
        np.random.seed(regs[R_SEED])
        regs[R_SEED] = -1
    regs[R_STATUS] = STATUS_DONE
    work = regs[R_QUOTA]
    depth = regs[R_DEPTH]
    phase = regs[R_PHASE]
    best_size = np.zeros(keep_best, np.int64)
    best_item = np.zeros(keep_best, np.int64)
    result = np.int64(0)  # a finished node's count, handed to its parent
    while phase != PHASE_DONE:
        finishing = False
        if phase == PHASE_BODY:
            # The node at ``depth`` has been entered (and counted).
            if work <= 0:
                regs[R_STATUS] = STATUS_QUOTA
                break
            if keep and regs[R_SOLUTIONS] + order.shape[1] + 1 > solutions.shape[0]:
                regs[R_STATUS] = STATUS_DRAIN
                break
            if (
                memo_on
                and regs[R_MEMO_LEN] < regs[R_MEMO_CAP]
                and regs[R_MEMO_LEN] + depth + 2 > regs[R_TABLE_ROOM]
            ):
                regs[R_STATUS] = STATUS_GROW
                break
            width = frames[depth, F_WIDTH]
            lo = frames[depth, F_LO]
            hi = frames[depth, F_HI]
            if width == 0:
                # Every primary item is covered: a solution.
                result = np.int64(1)
                finishing = True
                regs[R_FOUND] += regs[R_WEIGHT]
                if regs[R_WANT_RECENT]:
                    regs[R_RECENT_LEN] = record(frames, depth, -1, recent)
                    regs[R_WANT_RECENT] = 0
                if keep and (regs[R_MAX_KEPT] < 0 or regs[R_KEPT] < regs[R_MAX_KEPT]):
                    record(frames, depth, -1, solutions[regs[R_SOLUTIONS]])
                    regs[R_SOLUTIONS] += 1
                    regs[R_KEPT] += 1
                if limit >= 0 and regs[R_FOUND] >= limit:
                    regs[R_STATUS] = STATUS_LIMIT
                    phase = PHASE_DONE
                    break
            elif 0 < depth <= strike_depth:
                # Options dead at this node stay dead in its whole subtree (``memo.walk``).
                if frames[depth, F_ENTERED] >= 0:
                    frames[depth, F_SUBTREES] += 1
                    frames[depth, F_SPENT] += regs[R_NODES] - frames[depth, F_ENTERED]
                frames[depth, F_ENTERED] = regs[R_NODES]
                if frames[depth, F_SPENT] >= regs[R_STRIKE_SUBTREE] * frames[depth, F_SUBTREES]:
                    struck = strike_round(
                        live[depth], items[depth], width, lo, hi, item_masks, bands, compatible
                    )
                    if struck:
                        regs[R_STRUCK] += struck
                        frames[depth, F_STRUCK_PATH] = 1
                        for i in range(width):
                            sizes[depth, i] = row_size(
                                live, depth, item_masks, bands, items[depth, i], lo, hi
                            )
                            if sizes[depth, i] == 0:
                                result = np.int64(0)
                                finishing = True
                                break
            if not finishing:
                # MRV: the first item of fewest live options. Where a strike above makes the
                # memo ask before the child is made (see PHASE_NEXT), also the next tightest
                # items (stable: ties go to the first item), which ``memo.walk``'s dead end
                # check tries before it asks; elsewhere the check is left to the child itself.
                kept = 0
                if regs[R_SWEEP]:
                    # The sweep's order: its first uncovered item, then the next ones.
                    kept = min(width, keep_best) if frames[depth, F_STRUCK_PATH] else 1
                    for i in range(kept):
                        best_size[i] = sizes[depth, i]
                        best_item[i] = items[depth, i]
                elif frames[depth, F_STRUCK_PATH]:
                    for i in range(width):
                        size = sizes[depth, i]
                        if kept < keep_best or size < best_size[kept - 1]:
                            j = kept if kept < keep_best else keep_best - 1
                            while j > 0 and best_size[j - 1] > size:
                                best_size[j] = best_size[j - 1]
                                best_item[j] = best_item[j - 1]
                                j -= 1
                            best_size[j] = size
                            best_item[j] = items[depth, i]
                            if kept < keep_best:
                                kept += 1
                if kept:
                    chosen = best_item[0]
                    branches = best_size[0]
                else:
                    # Plain MRV, in locals; a live node's items all have options, so the
                    # first with one is the choice.
                    kept = 1
                    branches = sizes[depth, 0]
                    chosen = items[depth, 0]
                    for i in range(1, width):
                        if branches == 1:
                            break
                        if sizes[depth, i] < branches:
                            branches = sizes[depth, i]
                            chosen = items[depth, i]
                if width <= smallest_cover:
                    # Every candidate covers all the items left: each is a solution (a leaf).
                    taken = branches
                    if limit >= 0 and taken > limit - regs[R_FOUND]:
                        taken = limit - regs[R_FOUND]
                    if mode == MODE_SEARCH or regs[R_WANT_RECENT]:  # (a call costs here)
                        take_leaves(
                            regs, frames, live, item_masks, order, solutions, recent, depth,
                            chosen, lo, hi, taken,
                        )  # fmt: skip
                    regs[R_NODES] += taken
                    work -= taken
                    regs[R_FOUND] += taken * regs[R_WEIGHT]
                    result = taken
                    finishing = True
                    if limit >= 0 and regs[R_FOUND] >= limit:
                        regs[R_STATUS] = STATUS_LIMIT
                        phase = PHASE_DONE
                        break
                else:
                    frames[depth, F_SIZE] = branches
                    regs[R_MASK_OPS] += branches * width
                    for t in range(1, kept):
                        frames[depth, F_TIGHT + t - 1] = best_item[t]
                    frames[depth, F_TIGHT_COUNT] = kept - 1
                    # The branches: from the highest bit down when counting (as the pure
                    # walks), in option (bit) order when searching, shuffled on request.
                    n = 0
                    first = max(lo, bands[chosen, 0])
                    last = min(hi, bands[chosen, 1])
                    if mode == MODE_COUNT:
                        for w in range(last - 1, first - 1, -1):
                            word = live[depth, w] & item_masks[chosen, w]
                            while word != ZERO:
                                bit = top_bit(word)
                                word ^= ONE << np.uint64(bit)
                                order[depth, n] = w * 64 + bit
                                n += 1
                    else:
                        for w in range(first, last):
                            word = live[depth, w] & item_masks[chosen, w]
                            while word != ZERO:
                                order[depth, n] = w * 64 + low_bit(word)
                                word &= word - ONE
                                n += 1
                        if shuffle:
                            for i in range(n - 1, 0, -1):
                                j = np.random.randint(0, i + 1)
                                swap = order[depth, i]
                                order[depth, i] = order[depth, j]
                                order[depth, j] = swap
                    frames[depth, F_COUNT] = n
                    frames[depth, F_NEXT] = 0
                    frames[depth, F_TOTAL] = 0
                    phase = PHASE_NEXT
        else:
            # PHASE_NEXT: the next branches of the node at ``depth``, up to a live child.
            width = frames[depth, F_WIDTH]
            lo = frames[depth, F_LO]
            hi = frames[depth, F_HI]
            root_of_orbits = orbits and depth == 0
            entered = False
            while frames[depth, F_NEXT] < frames[depth, F_COUNT]:
                index = frames[depth, F_NEXT]
                frames[depth, F_NEXT] = index + 1
                frames[depth, F_INDEX] = index
                position = order[depth, index]
                word_of = position >> 6
                bit_of = ONE << np.uint64(position & 63)
                alive = True
                if root_of_orbits:
                    regs[R_WEIGHT] = root_weights[index]
                else:
                    # The dead end check: the tightest items, the option's own bit kept.
                    for t in range(frames[depth, F_TIGHT_COUNT]):
                        item = frames[depth, F_TIGHT + t]
                        if item_masks[item, word_of] & bit_of != ZERO:
                            continue
                        hit = False
                        for w in range(max(lo, bands[item, 0]), min(hi, bands[item, 1])):
                            if live[depth, w] & item_masks[item, w] & compatible[position, w]:
                                hit = True
                                break
                        if not hit:
                            alive = False
                            break
                complete = False
                if alive:
                    # The child: the live options AND the option's compatible ones; the
                    # items it covers drop out, and an item left without options is a dead end.
                    new_lo = hi
                    new_hi = lo
                    for w in range(lo, hi):
                        value = live[depth, w] & compatible[position, w]
                        live[depth + 1, w] = value
                        if value != ZERO:
                            if w < new_lo:
                                new_lo = w
                            new_hi = w + 1
                    if new_hi <= new_lo:
                        new_lo = lo
                        new_hi = lo
                    complete = True
                    count = 0
                    for i in range(width):
                        item = items[depth, i]
                        if item_masks[item, word_of] & bit_of != ZERO:
                            continue  # covered by the option
                        # (``row_size``, written out: a call takes its arrays' references)
                        size = np.int64(0)
                        for w in range(max(new_lo, bands[item, 0]), min(new_hi, bands[item, 1])):
                            size += popcount(live[depth + 1, w] & item_masks[item, w])
                        if size == 0:
                            complete = False
                            break
                        items[depth + 1, count] = item
                        sizes[depth + 1, count] = size
                        count += 1
                # The memo: a child entered carries its key (its children's start from it);
                # a live child asks for its sub-board, and so does a dead one where a strike
                # above may have left it dead but its sub-board known (as ``memo.walk``
                # asks before it makes the child); elsewhere the live options are a function
                # of the covered items, so a dead child's sub-board is never in the memo.
                if memo_ask and (complete or (alive and frames[depth, F_STRUCK_PATH])):
                    h = ZERO
                    for w in range(key_words):
                        word = keys[depth, w] | covers[position, w]
                        keys[depth + 1, w] = word
                        h = mix(h, word)
                    if not root_of_orbits:
                        # ``memo_slot`` written out (a call takes its arrays' references).
                        frames[depth + 1, F_HASH] = hashed(h)
                        slot = hashed(h) & (slots - 1)
                        while memo[slot, key_words] != ZERO:
                            same = True
                            for w in range(key_words):
                                if memo[slot, w] != keys[depth + 1, w]:
                                    same = False
                                    break
                            if same:
                                break
                            slot = (slot + 1) & (slots - 1)
                        known = np.int64(memo[slot, key_words]) - 1
                        if known >= 0:
                            total = checked_add(frames[depth, F_TOTAL], known)
                            if total < 0:
                                regs[R_STATUS] = STATUS_OVERFLOW
                                break
                            frames[depth, F_TOTAL] = total
                            regs[R_HITS] += 1
                            regs[R_FOUND] += known * regs[R_WEIGHT]
                            continue
                if complete:
                    frames[depth, F_CHOSEN] = position
                    child = depth + 1
                    frames[child, F_WIDTH] = count
                    frames[child, F_LO] = new_lo
                    frames[child, F_HI] = new_hi
                    frames[child, F_STRUCK_PATH] = frames[depth, F_STRUCK_PATH]
                    frames[child, F_NODES_BEFORE] = regs[R_NODES]
                    depth = child
                    regs[R_NODES] += 1
                    work -= 1
                    entered = True
                    break
                regs[R_NODES] += 1  # a dead end
                work -= 1
            if regs[R_STATUS] == STATUS_OVERFLOW:
                break
            if entered:
                phase = PHASE_BODY
            else:
                result = frames[depth, F_TOTAL]  # every branch tried: the node is finished
                finishing = True
        if finishing:
            # Hand ``result`` to the parent (and to the memo); carry on there.
            if depth == 0:
                regs[R_TOTAL] = result
                phase = PHASE_DONE
                break
            parent = depth - 1
            if orbits and parent == 0:
                result = checked_mul(result, root_weights[frames[0, F_NEXT] - 1])
                if result < 0:
                    regs[R_STATUS] = STATUS_OVERFLOW
                    break
            elif memo_on and regs[R_MEMO_LEN] < regs[R_MEMO_CAP]:
                # The key is not in the table (its lookup missed, and only this node's own
                # subtree, whose keys cover more items, was walked since): its slot is the
                # first free one from its hash on.
                slot = frames[depth, F_HASH] & (slots - 1)
                while memo[slot, key_words] != ZERO:
                    slot = (slot + 1) & (slots - 1)
                for w in range(key_words):
                    memo[slot, w] = keys[depth, w]
                memo[slot, key_words] = np.uint64(result + 1)
                regs[R_MEMO_LEN] += 1
                regs[R_SUBTREE_NODES] += regs[R_NODES] - frames[depth, F_NODES_BEFORE]
                if regs[R_MEMO_LEN] == regs[R_PROBE_AT]:
                    regs[R_PROBE_AT] += regs[R_HIT_PROBE]
                    entries = regs[R_MEMO_LEN]
                    if (
                        regs[R_HITS] * regs[R_MIN_HIT_SHARE] < entries
                        or 4 * regs[R_HITS] * regs[R_SUBTREE_NODES]
                        < regs[R_MIN_SAVED_QUARTERS] * entries * entries
                    ):
                        # Sub-boards rarely repeat here, or are cheaper to walk: off.
                        regs[R_MEMO_CAP] = 0
                        regs[R_MEMO_ASK] = 0
                        memo_ask = False
            total = checked_add(frames[parent, F_TOTAL], result)
            if total < 0:
                regs[R_STATUS] = STATUS_OVERFLOW
                break
            frames[parent, F_TOTAL] = total
            depth = parent
            phase = PHASE_NEXT
    regs[R_DEPTH] = depth
    regs[R_PHASE] = phase
