"""Where inputs come from: the ``sources`` of a run (files, folders, archives, PubMed files,
``s3://BUCKET/PREFIX``) as a lazy stream of :class:`WorkItem`, one source each for one parser.

Which parser reads a file is its source kind (:mod:`paperpyramid.parsers.registry`): a kind's
file suffixes find it in folders, archives and buckets, so a kind registered with
:func:`~paperpyramid.parsers.registry.register_kind` is found with no change here. What needs more
than a suffix is decided here: a JATS XML or a LaTeX source with the PDF beside it is one input
(``jats+pdf``, ``latex+pdf``), an ``.xml`` found in a folder is JATS only when its root says so,
and a PubMed file or an archive is a stream of inputs.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path, PurePosixPath
from typing import BinaryIO, cast

from minio import Minio

from paperpyramid.errors import BadInput
from paperpyramid.ingestion.archives import is_archive, iter_tar_pdfs, read_pmc_package
from paperpyramid.ingestion.jats_sources import find_jats, is_jats_name
from paperpyramid.ingestion.latex_sources import find_sources, is_source_name
from paperpyramid.ingestion.pairing import TarPairs
from paperpyramid.ingestion.pubmed_files import is_pubmed_file, is_pubmed_name, pubmed_items
from paperpyramid.ingestion.sources import discover_files, file_sha256
from paperpyramid.ingestion.work import WorkItem, refusal, s3_client
from paperpyramid.parsers.contract import JATS, JATS_PDF, LATEX, LATEX_PDF, PDF
from paperpyramid.parsers.registry import kind_of, kinds
from paperpyramid.s3 import S3Location, S3Object, iter_objects, open_object, parse_s3_uri
from paperpyramid.settings import IngestSettings, S3Settings

ARCHIVE_SUFFIXES = (".tar", ".tar.gz", ".tgz")
_LATEX_SUFFIXES = (".tex", ".ltx", ".gz", ".bbl")
#: files read with another (a LaTeX source's parts, a paired PDF), or not inputs when alone
_NOT_ALONE = (".tex", ".ltx", ".gz", ".bbl", ".nxml", ".xml")


def iter_items(sources: Iterable[str | Path], s3: S3Settings, scratch: Path, options: IngestSettings | None = None) -> Iterator[WorkItem]:
    """Inputs named by ``sources``, lazily: local files (with their SHA-256; an XML or a LaTeX
    source with the PDF beside it of its name is one input), the objects under each ``s3://``
    prefix (listed page by page), and the members of archives and records of PubMed files among
    them, streamed (members into ``scratch``) one at a time."""
    options = options or IngestSettings()
    for source in sources:
        text = str(source)
        if text.startswith("s3://"):
            yield from _bucket_items(parse_s3_uri(text), s3, scratch, options)
        else:
            yield from _local_items(text, scratch, options)


def known_total(sources: Iterable[str | Path], options: IngestSettings) -> int | None:
    """How many inputs ``sources`` hold, when that is known before reading them: local files of
    one input each. None when a bucket, an archive, a PubMed file, XML or a LaTeX source is among
    them: their inputs (members, records, which XML is JATS or pairs with a PDF) are known only
    as they are read."""
    listed = list(sources)
    if any(str(source).startswith("s3://") for source in listed):
        return None
    paths = list(discover_files(listed, suffixes=_found_suffixes(options, options.latex)))
    streamed = (*ARCHIVE_SUFFIXES, *_NOT_ALONE)
    return None if any(path.name.lower().endswith(streamed) for path in paths) else len(paths)


def kind_by_suffix(name: str, options: IngestSettings) -> str | None:
    """The kind a file found in a folder, an archive or a bucket is read as, by its suffix; None
    when no kind reads it (JATS's when ``options.jats`` is off)."""
    kind = kind_of(name)
    return None if kind == JATS and not options.jats else kind


def _found_suffixes(options: IngestSettings, latex: bool) -> tuple[str, ...]:
    """The suffixes of the files a folder walk or a bucket listing picks up."""
    suffixes = [*ARCHIVE_SUFFIXES, ".xml", ".xml.gz"]  # .xml: PubMed files whatever ``jats`` says
    suffixes += [suffix for kind in kinds() if kind.name != JATS or options.jats for suffix in kind.suffixes]
    suffixes += list(_LATEX_SUFFIXES) if latex else []
    return tuple(dict.fromkeys(suffixes))


def _bucket_items(location: S3Location, s3: S3Settings, scratch: Path, options: IngestSettings) -> Iterator[WorkItem]:
    client = s3_client(s3)
    for obj in iter_objects(client, location, s3, suffixes=_found_suffixes(options, latex=False)):
        name = obj.key.rsplit("/", 1)[-1]
        streamed = is_archive(name) or is_pubmed_name(name)
        kind = None if streamed else kind_by_suffix(name, options)
        if streamed:
            yield from _streamed_object(client, obj, s3, scratch, options)
        elif kind is not None:
            yield WorkItem(obj.uri, obj=obj, kind=kind)


def _streamed_object(client: Minio, obj: S3Object, s3: S3Settings, scratch: Path, options: IngestSettings) -> Iterator[WorkItem]:
    """An archive or a PubMed file in the bucket, read as it downloads: it never lands whole."""
    try:
        response = open_object(client, obj, s3)
    except BadInput as exc:  # deleted since the listing, or refused: this object only
        yield WorkItem(obj.uri, error=refusal(exc))
        return
    try:
        stream = cast(BinaryIO, response)  # urllib3's response reads like a file
        name = obj.key.rsplit("/", 1)[-1]
        yield from pubmed_items(stream, obj.uri, name) if not is_archive(name) else _archive_items(stream, obj.uri, scratch, options)
    finally:
        response.close()
        response.release_conn()


def _local_items(source: str, scratch: Path, options: IngestSettings) -> Iterator[WorkItem]:
    named = Path(source).is_file()
    latex = options.latex or _names_a_source(source)
    jats = options.jats or (named and is_jats_name(source))
    paths = list(discover_files([source], suffixes=_found_suffixes(options, latex)))
    pubmed = {path for path in paths if is_pubmed_file(path)}
    latex_sources = find_sources(paths) if latex else []
    jats_sources = find_jats([path for path in paths if path not in pubmed], named=named) if jats else []
    paired = {found.pdf for found in latex_sources if found.pdf is not None} | {
        found.pdf for found in jats_sources if found.pdf is not None
    }
    by_main = {found.main: found for found in latex_sources}
    by_xml = {found.xml: found for found in jats_sources}
    for path in paths:
        uri = str(path.resolve())
        if path in by_main:
            found = by_main[path]
            yield WorkItem(uri, path=found.bundle, pdf=found.pdf, kind=LATEX_PDF if found.pdf else LATEX, sha256=file_sha256(path))
        elif path in by_xml:
            pdf = by_xml[path].pdf
            yield WorkItem(uri, path=path, pdf=pdf, kind=JATS_PDF if pdf else JATS, sha256=file_sha256(path))
        elif path in pubmed:
            with path.open("rb") as handle:
                yield from pubmed_items(handle, uri, path.name)
        elif path in paired or (path.name.lower().endswith(_NOT_ALONE) and not is_archive(path.name)):
            continue  # read with its source (or, a .gz that is no source or an XML that is no JATS, not an input)
        elif is_archive(path.name):
            with path.open("rb") as handle:
                yield from _archive_items(handle, uri, scratch, options)
        else:  # named on its own, a file of no known suffix is taken for a PDF
            yield WorkItem(uri, path=path, kind=kind_by_suffix(path.name, options) or PDF, sha256=file_sha256(path))


def _names_a_source(source: str) -> bool:
    """A LaTeX source named on its own (a .tex, an arXiv .gz) is read as one whatever ``latex`` says."""
    return Path(source).is_file() and is_source_name(Path(source).name)


#: arXiv's bulk source tars (arXiv_src_2301_001.tar): their members are sources whatever ``latex`` says
_ARXIV_SOURCE_TAR = re.compile(r"arxiv_src_", re.I)
_PMC_PACKAGE = re.compile(r"(^|/)PMC\d+[^/]*\.(tar\.gz|tgz)$", re.I)


def _wanted(sources: bool, options: IngestSettings) -> Callable[[str], bool]:
    """Which tar members are inputs: those of a kind (PDFs, JATS ``.nxml``/``.xml`` when
    ``jats``, a registered kind's); with ``sources``, a paper's whole source (arXiv's ``<id>.gz``;
    a ``.tex`` member is part of a bundle, never a paper alone)."""

    def wanted(name: str) -> bool:
        base = PurePosixPath(name).name
        return kind_by_suffix(base, options) is not None or (
            sources and is_source_name(base) and not base.lower().endswith((".tex", ".ltx"))
        )

    return wanted


def _archive_items(stream: BinaryIO, uri: str, scratch: Path, options: IngestSettings) -> Iterator[WorkItem]:
    """A PMC OA package (``PMC<digits>….tar.gz``) is one article, its JATS XML the structure
    source; any other archive is a bundle of inputs (arXiv's ``arXiv_pdf_*.tar``, PMC's bulk
    ``oa_comm_xml.*.tar.gz``), one item each, a JATS XML and a PDF of the same stem or PMCID near
    each other in the tar one item (:class:`~.pairing.TarPairs`).
    A damaged archive yields what came before the damage and one failed item for the rest."""
    name = uri.rsplit("/", 1)[-1]
    folder = Path(tempfile.mkdtemp(prefix="archive-", dir=scratch))
    if _PMC_PACKAGE.search(uri):
        yield from _pmc_package(stream, uri, folder, options)
        return
    pairs = TarPairs()
    sources = options.latex or _ARXIV_SOURCE_TAR.search(name) is not None
    try:
        for member in iter_tar_pdfs(stream, folder, max_member_bytes=options.max_member_bytes, max_archive_bytes=options.max_archive_bytes,
                                    archive_name=name, wanted=_wanted(sources, options)):  # fmt: skip
            member_uri = f"{uri}#{member.name}"
            kind = kind_by_suffix(member.name, options)
            if member.path is None:
                yield WorkItem(member_uri, error=f"{name}: {member.name}: {member.error}")
            elif kind in (PDF, JATS):
                yield from pairs.add(member_uri, member.path, kind)
            elif kind is not None:
                yield WorkItem(member_uri, path=member.path, kind=kind, sha256=file_sha256(member.path), temporary=True)
            else:  # a paper's source, read alone: a tar streams, so the PDF of another tar cannot join it
                yield WorkItem(member_uri, path=member.path, kind=LATEX, sha256=file_sha256(member.path), temporary=True)
    except BadInput as exc:
        yield from pairs.flush()
        yield WorkItem(f"{uri}#(rest)", error=str(exc))
        return
    yield from pairs.flush()


def _pmc_package(stream: BinaryIO, uri: str, folder: Path, options: IngestSettings) -> Iterator[WorkItem]:
    name = uri.rsplit("/", 1)[-1]
    try:
        package = read_pmc_package(
            stream, folder, max_member_bytes=options.max_member_bytes, max_archive_bytes=options.max_archive_bytes, archive_name=name
        )
    except BadInput as exc:
        yield WorkItem(f"{uri}#(rest)", error=str(exc))
        return
    main = package.pdf or package.nxml  # its bytes identify the package, as they always have
    if main is None:
        yield WorkItem(uri, error=f"{name}: no .nxml or .pdf in the package ({'; '.join(package.errors) or 'empty'})")
    elif package.nxml is not None:
        kind = JATS_PDF if package.pdf is not None else JATS
        yield WorkItem(uri, path=package.nxml, pdf=package.pdf, kind=kind, sha256=file_sha256(main), temporary=True)
    else:
        yield WorkItem(uri, path=main, kind=PDF, sha256=file_sha256(main), temporary=True)


__all__ = ["ARCHIVE_SUFFIXES", "iter_items", "kind_by_suffix", "known_total"]
