"""The embedded parser: offline, no services, permissive licences (pdfium via pypdfium2)."""

from paperpyramid.parsers.embedded.parser import NAME, open_pdf, parse_pdf

__all__ = ["NAME", "open_pdf", "parse_pdf"]
