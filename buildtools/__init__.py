"""The build tools behind ``python3 build.py``: standard library only, one module per job.

- ``repo``: the paths of the checkout; ``BuildError`` and ``log`` for the person at the terminal.
- ``downloads``: the pinned Pyodide runtime (npm), fetched once into .cache/ and checked against
  its hash.
- ``wheel``: the pysolver wheel written from the current sources, named by their hash.
- ``site``: dist/ (front end, runtime, wheels, manifest, facts, the README and docs/ as pages)
  and the service worker's precache list.
- ``markdown``: README.md and docs/*.md as pages of the site, headings anchored as on GitHub.
- ``server``: the dev server for dist/ (MIME types, cache headers, COOP/COEP).
- ``toolchain``: .venv with the pinned test tools, Chromium, the pinned eslint.
- ``runners``: ``build.py test`` (linters, then pytest) and ``build.py bench``.
"""
