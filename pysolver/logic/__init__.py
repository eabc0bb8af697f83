"""Solving as a person does: named techniques, one step at a time (explain and hint modes).

Each puzzle family has a board of candidates and a list of technique finders, easiest first;
a finder looks at the board and returns one ``Step`` (what it places, what it eliminates, the
cells that justify it, a sentence) or None. ``path`` runs them: the first finder that fires
makes the next step, and when none fires the step is a guess, a branch of the search whose
right side is known from the solution.

What every family shares is here (``step``: ``Step``, ``Technique``, the grade); each family's
board, finders and path live in its kind's folder (the Sudoku's ``board``, ``techniques`` and
``path``, the Shikaku's ``logic``), beside the kind module that translates puzzles into boards
and steps into JSON; the midend (``pysolver.midend.explain``) owns the modes.
"""
