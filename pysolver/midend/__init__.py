"""The midend (Tatham's word): between the protocol and the kinds, it runs any search for any
kind and owns every rule around it, once.

- ``requests``: ``solve(request, progress, cancel)``, the request read strictly, the count rule
  and the response (``pysolver.api`` delegates to it);
- ``registry``: ``kind(name)``, a kind module with the pipeline around it (``solve``,
  ``split``, ``merge_fields``, ``splittable``: what ``pysolver.parallel`` receives);
- ``plan``: the ``Plan`` a kind's ``prepare`` returns (the only midend module kinds import);
- ``pipeline``: the engine within the budget, the listing cap, heatmaps, seeds, trace.

This package's ``__init__`` imports nothing, so a kind importing ``pysolver.midend.plan`` makes
no import circle.
"""
