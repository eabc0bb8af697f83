"""Solving as a person does: named techniques, one step at a time (explain and hint modes).

Each puzzle family has a board of candidates and a list of technique finders, easiest first;
a finder looks at the board and returns one ``Step`` (what it places, what it eliminates, the
cells that justify it, a sentence) or None. ``path`` runs them: the first finder that fires
makes the next step, and when none fires the step is a guess, a branch of the search whose
right side is known from the solution. Nothing here parses a request: the kinds
(``pysolver.kinds.sudoku``, ``pysolver.kinds.shikaku``) translate puzzles into boards and
steps into JSON, and the midend (``pysolver.midend.explain``) owns the modes.

- ``sudoku_board``: ``Grid`` (candidates as bit masks over houses: rows, columns, boxes or
  jigsaw regions, diagonals) and ``Step``;
- ``sudoku_techniques``: the Sudoku finders and their levels, ``TECHNIQUES``;
- ``sudoku_path``: the Sudoku path from a board to its solution, guesses, the grade, hints;
- ``shikaku``: the Shikaku board, its finders, path and hints.
"""
