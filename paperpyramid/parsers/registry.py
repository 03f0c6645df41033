"""Every parser in one registry, by source kind, each keeping the one contract
``parse(source, options) -> Document`` (:mod:`.contract`).

- ``pdf``: the PDF backend the settings name (``--parser``: ``embedded``, ``auto``, ``grobid``,
  ``unstructured``, ``nougat``, each registered here under that name, or the import path
  ``package.module:function`` of a PDF parser of one's own, :class:`~.contract.PdfParser`);
- ``jats``, ``jats+pdf``, ``latex``, ``latex+pdf``, ``pubmed-record``: one parser each;
- any kind registered with :func:`register_kind`, with the file suffixes that ingest finds it by::

      register_kind("txt", "mypackage.plain:parse", suffixes=(".txt",), label="plain text")

The ingest pipeline asks :func:`choose` for a source's parser and calls it; it knows no parser by
name. A kind registered by its parser's import path reaches a run's worker processes with the
run's settings (``IngestSettings.kinds``, which can also declare kinds:
``PAPERPYRAMID_INGEST__KINDS='[{"name": "txt", "parser": "mypackage.plain:parse", "suffixes": [".txt"]}]'``);
one registered with the function itself is known in this process only (``workers=0``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from paperpyramid.document import Document
from paperpyramid.errors import ConfigurationError
from paperpyramid.parsers.backends import from_pdf_parser
from paperpyramid.parsers.contract import JATS, JATS_PDF, LATEX, LATEX_PDF, PDF, PUBMED_RECORD, Parser, PdfParser, Source
from paperpyramid.registry import Registry, load
from paperpyramid.settings import IngestSettings, SourceKindSettings

_BACKENDS = "paperpyramid.parsers.backends"

#: the PDF backends ``--parser`` chooses from (:data:`paperpyramid.settings.PARSER_NAMES`)
PDF_BACKENDS = {
    "embedded": f"{_BACKENDS}:parse_embedded",
    # the service-backed parsers: the embedded parse merged with what the services deliver
    "auto": f"{_BACKENDS}:parse_with_services",
    "grobid": f"{_BACKENDS}:parse_with_services",
    "unstructured": f"{_BACKENDS}:parse_with_services",
    "nougat": f"{_BACKENDS}:parse_with_services",
}
#: what each service-backed parser name asks for
SERVICES_OF = {"auto": ("grobid", "tables", "nougat"), "grobid": ("grobid",), "unstructured": ("tables",), "nougat": ("nougat",)}


def parse_pdf(source: Source, options: IngestSettings) -> Document:
    """A PDF, by the backend the settings name (``options.parser``)."""
    if options.parser in _KINDS:  # a kind's parser is never a PDF backend (settings refuse the name; this is for model_construct)
        raise ConfigurationError(PARSERS.unknown(options.parser))
    return PARSERS.get(options.parser)(source, options)


#: name -> parser ("module:function", imported when chosen): the source kinds and the PDF backends
PARSERS: Registry[Parser] = Registry(
    "parser",
    {
        PDF: parse_pdf,
        **PDF_BACKENDS,
        JATS: f"{_BACKENDS}:parse_jats",
        JATS_PDF: f"{_BACKENDS}:parse_jats",
        LATEX: f"{_BACKENDS}:parse_latex",
        LATEX_PDF: f"{_BACKENDS}:parse_latex",
        PUBMED_RECORD: f"{_BACKENDS}:parse_pubmed_record",
    },
    import_paths=from_pdf_parser,
)


@dataclass(frozen=True, slots=True)
class SourceKind:
    """A kind of source: its name (the parser's in :data:`PARSERS`), what to call it in messages,
    the file suffixes ingest finds it by in folders, archives and buckets, and ``sniff``, the
    import path of a check ``(path) -> bool`` that a file found by its suffix is of this kind
    (an ``.xml`` may be JATS or not): a file it refuses is no input."""

    name: str
    label: str
    suffixes: tuple[str, ...] = ()
    sniff: str | None = None


_KINDS: dict[str, SourceKind] = {
    kind.name: kind
    for kind in (
        SourceKind(PDF, "PDF", (".pdf",)),
        SourceKind(JATS, "JATS", (".nxml", ".xml"), f"{_BACKENDS}:looks_like_jats"),
        SourceKind(JATS_PDF, "JATS"),
        SourceKind(LATEX, "LaTeX"),
        SourceKind(LATEX_PDF, "LaTeX"),
        SourceKind(PUBMED_RECORD, "PubMed record"),
    )
}


def register_kind(
    kind: str, parser: str | Parser, *, suffixes: tuple[str, ...] = (), label: str | None = None, replace: bool = False
) -> None:
    """Add a kind of source: its parser (``"package.module:function"``, or the function itself
    for runs in this process only), keeping the contract, and the suffixes (``".txt"``) of the
    files ingest reads with it. A kind or a suffix already taken is refused unless ``replace``."""
    lowered = tuple(suffix.lower() for suffix in suffixes)
    if any(not suffix.startswith(".") for suffix in lowered):
        raise ValueError(f"suffixes start with a dot: {suffixes!r}")
    taken = {suffix: other.name for other in _KINDS.values() if other.name != kind for suffix in other.suffixes}
    clashes = [f"{suffix} ({taken[suffix]})" for suffix in lowered if suffix in taken]
    if clashes and not replace:
        raise ValueError(f"source kind {kind!r}: suffix already read as another kind: {', '.join(clashes)}")
    if kind in _KINDS and not replace:
        raise ValueError(f"a source kind named {kind!r} is already registered")
    PARSERS.register(kind, parser, replace=replace)
    if replace:
        for other in list(_KINDS.values()):
            if other.name != kind and set(other.suffixes) & set(lowered):
                _KINDS[other.name] = SourceKind(other.name, other.label, tuple(s for s in other.suffixes if s not in lowered), other.sniff)
    _KINDS[kind] = SourceKind(kind, label or kind, lowered)


def unregister_kind(kind: str) -> None:
    """Remove a kind added by :func:`register_kind` (a test's, say)."""
    if kind in _BUILT_IN:
        raise ValueError(f"{kind!r} is built in")
    PARSERS.unregister(kind)
    del _KINDS[kind]


def kinds() -> tuple[SourceKind, ...]:
    """Every kind of source, the built-in ones first."""
    return tuple(_KINDS.values())


def kind_of(name: str) -> str | None:
    """The kind a file of this name is read as, by its suffix (the longest that a kind claims,
    any case), or None."""
    lower = name.lower()
    best: tuple[int, str] | None = None
    for kind in _KINDS.values():
        for suffix in kind.suffixes:
            if lower.endswith(suffix) and (best is None or len(suffix) > best[0]):
                best = (len(suffix), kind.name)
    return None if best is None else best[1]


def suffixes_of(kind: str) -> tuple[str, ...]:
    """The suffixes a kind is found by (none for the kinds found with another file: ``jats+pdf``)."""
    found = _KINDS.get(kind)
    return found.suffixes if found is not None else ()


def accepts(kind: str, path: Path) -> bool:
    """Whether a file found by its suffix (``path``) is of ``kind``: its sniff says so, or it has none."""
    found = _KINDS.get(kind)
    if found is None or found.sniff is None:
        return True
    check: Callable[[Path], bool] = load(found.sniff)
    return check(path)


def label_of(kind: str) -> str:
    """What to call a kind of source in a message: "PDF", "JATS", "LaTeX", ..."""
    found = _KINDS.get(kind)
    return found.label if found is not None else kind


def choose(kind: str, options: IngestSettings | None = None) -> Parser:
    """The parser of a kind of source (a PDF's reads ``options.parser`` when called); a kind of
    ``options.kinds`` not registered in this process (a worker's) is registered first. Raises
    :class:`~paperpyramid.errors.ConfigurationError` for a kind nobody registered, naming those
    that are."""
    if options is not None and kind not in PARSERS:
        for spec in options.kinds:
            if spec.name == kind:
                _register_from(spec)
    return PARSERS.get(kind)


def prepare(options: IngestSettings) -> IngestSettings:
    """What a run's parsers settle once, at its start: the kinds of one's own (those of
    ``options.kinds`` registered here, those registered here by import path added to it, for the
    workers), and which parser services answer (for ``--parser auto``, ``grobid``,
    ``unstructured``, ``nougat``). Raises :class:`~paperpyramid.errors.ServiceUnavailable` when a
    service named explicitly is down."""
    for spec in options.kinds:
        if spec.name not in PARSERS:
            _register_from(spec)
    declared = {spec.name for spec in options.kinds}
    own = [
        SourceKindSettings(name=kind.name, parser=target, suffixes=list(kind.suffixes), label=kind.label)
        for kind in _KINDS.values()
        if kind.name not in _BUILT_IN | declared and isinstance(target := PARSERS.target(kind.name), str)
    ]
    options = options.model_copy(update={"kinds": [*options.kinds, *own]})
    if options.parser not in SERVICES_OF:
        return options
    from paperpyramid.parsers.services import resolve_services

    return resolve_services(options)[0]


def _register_from(spec: SourceKindSettings) -> None:
    register_kind(spec.name, spec.parser, suffixes=tuple(spec.suffixes), label=spec.label)


def get_parser(name: str) -> PdfParser:
    """The PDF backend ``name`` (or at the import path ``name``) as a function of a PDF's path,
    for parsing one PDF outside a run; unknown names fail with the list of known ones."""
    parser = PARSERS.get(name)

    def parse(path: Path, *, password: str | None = None, max_pages: int = 500, time_limit: float | None = None) -> Document:
        options = IngestSettings(parser=name, password=password, max_pages=max_pages, time_limit=time_limit or float("inf"), workers=0)
        return parser(Source(PDF, path=Path(path)), options)

    return parse


_BUILT_IN = frozenset(_KINDS)

__all__ = [
    "PARSERS",
    "PDF_BACKENDS",
    "SERVICES_OF",
    "SourceKind",
    "accepts",
    "choose",
    "get_parser",
    "kind_of",
    "kinds",
    "label_of",
    "parse_pdf",
    "prepare",
    "register_kind",
    "suffixes_of",
    "unregister_kind",
]
