"""A structured reply kept to what its schema advertises: every list cut to its ``maxItems``
on receipt (:func:`cap_lists`), so a model that answers 2,000 concepts, 500 facts or 500
claims where the schema allows 30, 5 or 10 costs that many rows, searches or claims, and the
cut is said."""

from __future__ import annotations

from pydantic import BaseModel

__all__ = ["cap_lists"]


def cap_lists(value: BaseModel, step: str) -> list[str]:
    """Cut, in place, every list of ``value`` (and of the models inside it) to its field's
    ``maxItems``; return one warning per cut field, saying how many items came and were kept."""
    cuts: dict[tuple[str, int], list[int]] = {}
    _cap(value, "", cuts)
    return [f"{step}: {path} held {sizes[0]} items where the schema allows {limit}; the first {limit} kept" if len(sizes) == 1
            else f"{step}: {len(sizes)} {path} lists held more than {limit} items (up to {max(sizes)}); each cut to its first {limit}"
            for (path, limit), sizes in cuts.items()]  # fmt: skip


def _cap(value: BaseModel, prefix: str, cuts: dict[tuple[str, int], list[int]]) -> None:
    for name, field in type(value).model_fields.items():
        items = getattr(value, name)
        if not isinstance(items, list):
            continue
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        limit = extra.get("maxItems")
        path = f"{prefix}{name}"
        if isinstance(limit, int) and len(items) > limit:
            cuts.setdefault((path, limit), []).append(len(items))
            items = items[:limit]
            setattr(value, name, items)
        for item in items:
            if isinstance(item, BaseModel):
                _cap(item, f"{path}[].", cuts)
