"""The puzzle kinds, found by scanning this package: every folder in it is one kind, named as
the folder (the request's ``kind``), its ``__init__.py`` the kind module. What a kind module
provides is the contract, in ``pysolver.kinds.contract``.

No list of kinds is typed anywhere: ``kind_names()`` orders the folders by their modules'
``ORDER``, and everything that goes through every kind (facts.json, the CLI's help, the
midend's lists of kinds per mode, the tests, the benchmarks) asks it. Finding the folders
imports none of them (``pkgutil`` lists a package's folders, in a source tree as in the wheel
Pyodide installs), so ``is_kind`` costs nothing; ``kind_module`` imports a kind on first use,
and ``kind_names`` imports them all, once, to read their ``ORDER``.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from types import ModuleType
from typing import cast

from pysolver.kinds.contract import KindModule


@cache
def kind_folders() -> tuple[str, ...]:
    """The kinds' names (their folders), alphabetically, without importing any of them."""
    return tuple(sorted(found.name for found in pkgutil.iter_modules(__path__) if found.ispkg))


def is_kind(name: object) -> bool:
    """Whether ``name`` is a kind's name (imports nothing)."""
    return isinstance(name, str) and name in kind_folders()


def kind_module(kind: str) -> KindModule:
    """The module of the kind ``kind`` (imported on first use). Raises KeyError if unknown."""
    if not is_kind(kind):
        raise KeyError(kind)
    # The contract is checked by tests/test_kinds.py for every kind.
    return cast(KindModule, importlib.import_module(f"{__name__}.{kind}"))


@cache
def kind_names() -> tuple[str, ...]:
    """Every kind's name in registry order: by the kind modules' ``ORDER``."""
    return tuple(sorted(kind_folders(), key=lambda name: kind_module(name).ORDER))


def kind_part(kind: str, part: str) -> ModuleType | None:
    """The module ``part`` of the kind's folder (``library``), None when the folder has none.
    For the layers above the midend, which find a kind's optional modules by their names."""
    if not is_kind(kind):
        raise KeyError(kind)
    name = f"{__name__}.{kind}.{part}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        return None
