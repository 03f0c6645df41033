"""Licences read as short keys from the forms they arrive in: JATS URLs, licence words, PMC's short names."""

from __future__ import annotations

import pytest

from paperpyramid.licences import KEYS, licence_key


@pytest.mark.parametrize(
    ("given", "key"),
    [
        ("http://creativecommons.org/licenses/by/4.0/", "cc-by"),
        ("https://creativecommons.org/licenses/by-nc-nd/4.0/", "cc-by-nc-nd"),
        ("https://creativecommons.org/licenses/by-sa/3.0/igo/", "cc-by-sa"),
        ("https://creativecommons.org/publicdomain/zero/1.0/", "cc0"),
        ("CC BY-NC", "cc-by-nc"),
        ("CC BY-SA", "cc-by-sa"),
        ("CC0", "cc0"),
        ("This is an open access article distributed under the terms of the Creative Commons Attribution License", "cc-by"),
        ("Creative Commons Attribution-NonCommercial-ShareAlike 4.0 International", "cc-by-nc-sa"),
        ("Creative Commons Attribution-NonCommercial-NoDerivs licence", "cc-by-nc-nd"),
        ("This article is in the public domain.", "pd"),
        ("NO-CC CODE", None),
        ("© 2020 The Authors. All rights reserved.", None),
        ("", None),
        (None, None),
    ],
)
def test_licence_key(given: str | None, key: str | None) -> None:
    assert licence_key(given) == key
    assert key is None or key in KEYS
