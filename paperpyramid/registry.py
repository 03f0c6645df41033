"""A registry of backends by name: each name maps to a ``"package.module:attribute"`` path, imported
only when the backend is chosen (heavy backends are optional extras), or to the object itself.

One kind of backend, one :class:`Registry`: the parsers (:mod:`paperpyramid.parsers.registry`) are
one; embedders, LLM backends and search modes can be others. A name registered twice is refused
(``replace=True`` says it is meant), and an unknown name fails with the list of known ones.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar

from paperpyramid.errors import ConfigurationError

T = TypeVar("T")

#: ``package.module:attribute``
IMPORT_PATH = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")


def is_import_path(name: str) -> bool:
    """Whether ``name`` reads ``package.module:attribute``."""
    return bool(IMPORT_PATH.match(name))


def load(path: str) -> Any:
    """The object at ``package.module:attribute``; raises ImportError or AttributeError."""
    module_name, attribute = path.split(":")
    return getattr(importlib.import_module(module_name), attribute)


class Registry(Generic[T]):
    """Backends of one kind (``what``: "parser", "embedder", ...) by name.

    ``entries`` maps each name to ``"package.module:attribute"`` (imported on first use) or to the
    backend itself. With ``import_paths``, a name that is not registered but reads
    ``package.module:attribute`` is imported too and passed through ``import_paths`` (the adapter
    from what a user writes to the registry's type; the identity when they are the same).
    """

    def __init__(self, what: str, entries: Mapping[str, str | T] | None = None, *, import_paths: Callable[[Any], T] | None = None) -> None:
        self.what = what
        self._entries: dict[str, str | T] = {}
        self._loaded: dict[str, T] = {}
        self._import_paths = import_paths
        for name, target in (entries or {}).items():
            self.register(name, target)

    def register(self, name: str, target: str | T, *, replace: bool = False) -> None:
        """Add the backend ``name``; a name already registered is refused unless ``replace``."""
        if not name or ":" in name:
            raise ValueError(f"a {self.what} name is a plain word, not {name!r}")
        if name in self._entries and not replace:
            raise ValueError(f"a {self.what} named {name!r} is already registered")
        if isinstance(target, str) and not is_import_path(target):
            raise ValueError(f"{self.what} {name!r}: {target!r} is not package.module:attribute")
        self._entries[name] = target
        self._loaded.pop(name, None)

    def unregister(self, name: str) -> None:
        """Remove the backend ``name`` (a test's, say); an unknown name is refused."""
        if name not in self._entries:
            raise KeyError(self.unknown(name))
        del self._entries[name]
        self._loaded.pop(name, None)

    def target(self, name: str) -> str | T:
        """What ``name`` was registered as: its import path, or the backend itself."""
        if name not in self._entries:
            raise KeyError(self.unknown(name))
        return self._entries[name]

    def names(self) -> tuple[str, ...]:
        """The registered names, in the order they were registered."""
        return tuple(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def accepts(self, name: str) -> bool:
        """Whether ``get(name)`` can find a backend by that name (it may still fail to import)."""
        return name in self._entries or (self._import_paths is not None and is_import_path(name))

    def unknown(self, name: str) -> str:
        """What to say of a name that is not known."""
        also = " (or package.module:function)" if self._import_paths is not None else ""
        return f"unknown {self.what} {name!r}; choose one of: {', '.join(self._entries)}{also}"

    def get(self, name: str) -> T:
        """The backend ``name``, imported on first use. Raises :class:`ConfigurationError` for an
        unknown name (listing the known ones) or one whose module cannot be imported."""
        if name in self._loaded:
            return self._loaded[name]
        target = self._entries.get(name)
        if target is None and not self.accepts(name):
            raise ConfigurationError(self.unknown(name))
        try:
            if target is None:
                assert self._import_paths is not None  # accepts() said so
                found: T = self._import_paths(load(name))
            else:
                found = load(target) if isinstance(target, str) else target
        except (ImportError, AttributeError) as exc:
            raise ConfigurationError(f"{self.what} {name!r} cannot be imported: {exc}") from exc
        self._loaded[name] = found
        return found


__all__ = ["IMPORT_PATH", "Registry", "is_import_path", "load"]
