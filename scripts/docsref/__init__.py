"""The reference pages of the documentation, one module a page (see scripts/docs_reference.py)."""
