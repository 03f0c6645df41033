"""Bulk dumps as a stream of files: arXiv's PDF tars and PubMed Central OA packages.

An arXiv bulk tar (``arXiv_pdf_2301_001.tar``) holds hundreds of PDFs, a few GB in all; a
PMC OA package (``PMC4417228.tar.gz``) holds one article's JATS XML, its PDF and images.
Both come from outside, so they are read as untrusted input:

- the archive is read as a stream (``tarfile`` mode ``r|*``): it is never seeked, so it
  can come straight from a bucket or a pipe, and never unpacked whole onto the disk;
- only the members asked for are written, each to a flat name of our own choosing inside
  ``dest``: a member name never becomes a path, so ``../``, absolute paths, drive letters
  and links cannot write anywhere else;
- links, devices and FIFOs are refused, as are members over ``max_member_bytes``, whose
  data is skipped without being read into memory or onto the disk, and names too long to
  log whole;
- what is read is bounded: an archive stops with :class:`~paperpyramid.errors.BadInput`
  at the member that would take it past ``max_archive_bytes``, a member's headers (pax
  records, long names, sparse maps) past a few MB, and a sparse member's holes are
  never inflated to be skipped;
- a truncated or damaged archive raises :class:`~paperpyramid.errors.BadInput` after the
  members before the damage have been yielded, so what was readable is not lost.

The caller owns the extracted files: it should delete each one once it has been parsed
(``item.path.unlink()``), so that a multi-GB tar never needs more than one member's worth
of disk at a time.
"""

from __future__ import annotations

import io
import lzma
import re
import tarfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, BinaryIO

from paperpyramid.errors import BadInput

if TYPE_CHECKING:
    from tarfile import _Fileobj

__all__ = ["ArchiveItem", "PmcPackage", "is_archive", "iter_tar_pdfs", "read_pmc_package"]

DEFAULT_MAX_MEMBER_BYTES = 512 * 2**20
# arXiv's bulk tars are a few GB; the limit is what a gzip bomb may cost to read through
DEFAULT_MAX_ARCHIVE_BYTES = 64 * 2**30
_CHUNK = 2**20
# pax and GNU long-name headers are read into memory whole by tarfile; real ones are tiny
_MAX_HEADER_DATA = 2**20
# all the headers before one member, chained: a pax record and a long name or two in real archives
_MAX_HEADER_BYTES = 2 * _MAX_HEADER_DATA
_MAX_HEADERS = 8
# longer names are shown cut, and a cut name cannot tell two members apart in the log
_MAX_NAME = 300
_HEADER_DATA_TYPES = frozenset(
    {tarfile.XHDTYPE, tarfile.XGLTYPE, tarfile.SOLARIS_XHDTYPE, tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK}
)
_UNSAFE_FLAT = re.compile(r"[^A-Za-z0-9._-]+")
_MAX_FLAT_NAME = 180
# what a damaged stream raises from inside tarfile and its decompressors
_DAMAGE = (tarfile.TarError, zlib.error, lzma.LZMAError, EOFError)
# what tarfile's header code raises on garbage numbers (a pax sparse map, say)
_HEADER_DAMAGE = (*_DAMAGE, ValueError)


@dataclass(slots=True)
class ArchiveItem:
    """One member of an archive: extracted to ``path``, or refused with the reason in ``error``.

    ``name`` is the member's name made safe to show (a refused name may be hostile), and
    ``size`` the size its header declares.
    """

    name: str
    path: Path | None
    error: str | None
    size: int


@dataclass(slots=True)
class PmcPackage:
    """The files of a PMC OA package that matter: the JATS XML and the article's PDF.

    Either may be ``None`` (a package without a PDF is common); ``errors`` says why
    members were refused or what is missing.
    """

    name: str
    nxml: Path | None
    pdf: Path | None
    errors: list[str] = field(default_factory=list)


def is_archive(name: str) -> bool:
    """Whether a file name is one of the archives read here: ``.tar``, ``.tar.gz`` or ``.tgz``."""
    lowered = name.lower()
    return lowered.endswith((".tar", ".tar.gz", ".tgz"))


def iter_tar_pdfs(
    fileobj: BinaryIO,
    dest: Path,
    *,
    max_member_bytes: int = DEFAULT_MAX_MEMBER_BYTES,
    max_archive_bytes: int = DEFAULT_MAX_ARCHIVE_BYTES,
    archive_name: str = "archive",
    wanted: Callable[[str], bool] | None = None,
) -> Iterator[ArchiveItem]:
    """Extract the PDFs of a tar (plain or gzipped) one at a time, as a stream.

    Yields an :class:`ArchiveItem` per ``.pdf`` member (or per member whose name ``wanted``
    accepts: arXiv's source tars hold a ``<id>.gz`` per paper), in archive order, with its file
    written under ``dest`` (created if missing), and one per member that was refused
    whatever its suffix (a link, an unsafe name). Other members and directories are
    skipped without a word. The caller deletes each ``item.path`` once done with it.

    Raises :class:`~paperpyramid.errors.BadInput` when the archive is unreadable, truncated
    or damaged, or at the member that would take it past ``max_archive_bytes`` (counted
    uncompressed), after yielding the members before.
    """
    dest.mkdir(parents=True, exist_ok=True)
    with _open_stream(fileobj, archive_name, max_archive_bytes) as members:
        for entry in members:
            name, size = entry.name, entry.member.size
            if entry.refusal is not None:
                yield ArchiveItem(name, None, entry.refusal, size)
                continue
            if not (wanted(name) if wanted is not None else name.lower().endswith(".pdf")):
                continue
            if size > max_member_bytes:
                yield ArchiveItem(name, None, _too_big(size, max_member_bytes), size)
                continue
            target = _flat_target(dest, name)
            error = entry.extract(target, max_member_bytes)
            yield ArchiveItem(name, None if error else target, error, size)


def read_pmc_package(
    fileobj: BinaryIO,
    dest: Path,
    *,
    max_member_bytes: int = DEFAULT_MAX_MEMBER_BYTES,
    max_archive_bytes: int = DEFAULT_MAX_ARCHIVE_BYTES,
    archive_name: str,
) -> PmcPackage:
    """Extract the JATS XML and the main PDF of a PubMed Central OA package (``.tar.gz``).

    The first ``.nxml`` is taken. The main PDF is the one whose name (less ``.pdf``) is the
    XML's; failing that, the largest (supplementary PDFs are usually smaller). Images and
    everything else stay unread. Since the stream cannot go back, PDFs met before the XML
    are kept until it is known which one is wanted, and the others are deleted.

    Raises :class:`~paperpyramid.errors.BadInput` when the archive is unreadable, truncated,
    damaged or over ``max_archive_bytes``; nothing extracted is left behind then.
    """
    dest.mkdir(parents=True, exist_ok=True)
    package = PmcPackage(name=archive_name, nxml=None, pdf=None)
    xml_stem: str | None = None
    pdfs: list[_Candidate] = []
    try:
        with _open_stream(fileobj, archive_name, max_archive_bytes) as members:
            for entry in members:
                name, member = entry.name, entry.member
                if entry.refusal is not None:
                    package.errors.append(f"{name}: {entry.refusal}")
                    continue
                path = PurePosixPath(name)
                suffix = path.suffix.lower()
                if suffix not in (".nxml", ".pdf") or (suffix == ".nxml" and package.nxml is not None):
                    continue
                if suffix == ".pdf" and xml_stem is not None and any(pdf.stem == xml_stem for pdf in pdfs):
                    continue  # the XML's own PDF is already in hand
                if member.size > max_member_bytes:
                    package.errors.append(f"{name}: {_too_big(member.size, max_member_bytes)}")
                    continue
                target = _flat_target(dest, path.name)
                error = entry.extract(target, max_member_bytes)
                if error is not None:
                    package.errors.append(f"{name}: {error}")
                    continue
                if suffix == ".nxml":
                    package.nxml, xml_stem = target, path.stem.lower()
                else:
                    pdfs.append(_Candidate(target, member.size, path.stem.lower()))
                if xml_stem is not None:  # from now on one PDF at a time is enough
                    pdfs = _keep_main(pdfs, xml_stem)
    except BadInput:
        for pdf in pdfs:
            pdf.path.unlink(missing_ok=True)
        if package.nxml is not None:
            package.nxml.unlink(missing_ok=True)
        raise
    pdfs = _keep_main(pdfs, xml_stem)
    package.pdf = pdfs[0].path if pdfs else None
    if package.nxml is None:
        package.errors.append("no .nxml (JATS XML) in the package")
    if package.pdf is None:
        package.errors.append("no .pdf in the package")
    return package


@dataclass(slots=True)
class _Candidate:
    path: Path
    size: int
    stem: str


def _keep_main(pdfs: list[_Candidate], xml_stem: str | None) -> list[_Candidate]:
    """The main PDF among the candidates (the XML's namesake, else the largest); the others are deleted."""
    if not pdfs:
        return []
    matching = [pdf for pdf in pdfs if pdf.stem == xml_stem]
    main = matching[0] if matching else max(pdfs, key=lambda pdf: pdf.size)
    for pdf in pdfs:
        if pdf is not main:
            pdf.path.unlink(missing_ok=True)
    return [main]


# --------------------------------------------------------------------------- reading the stream


class _Damaged(Exception):
    """Raised from inside tarfile's header reading, where tarfile would otherwise stop quietly."""


class _CheckedTarInfo(tarfile.TarInfo):
    """A TarInfo that tells a damaged or truncated archive from a finished one.

    tarfile ends its member list without a word when the stream stops mid-archive or a
    header is garbage, which would make a truncated download look complete. A finished
    archive ends with a zero block; anything else is damage. It also refuses a pax or
    GNU long-name header that declares more data than any real one has, since tarfile
    reads that data into memory whole, and bounds all the headers of one member together.
    """

    @classmethod
    def fromtarfile(cls, archive: tarfile.TarFile) -> _CheckedTarInfo:
        stream = archive.fileobj
        if isinstance(stream, _HeaderReader):  # the member after a pax or long-name header: the same budget
            stream.headers += 1
            if stream.headers > _MAX_HEADERS:
                raise _Damaged(f"over {_MAX_HEADERS} extended headers chained before one member")
            return super().fromtarfile(archive)
        assert stream is not None  # an open archive
        archive.fileobj = _HeaderReader(stream)
        try:
            return super().fromtarfile(archive)
        finally:
            archive.fileobj = stream

    @classmethod
    def frombuf(cls, buf: bytes | bytearray, encoding: str, errors: str) -> _CheckedTarInfo:
        if len(buf) == 0:
            raise _Damaged("the archive ends without its end-of-archive marker (truncated?)")
        if len(buf) != tarfile.BLOCKSIZE:
            raise _Damaged("the archive ends inside a member header (truncated?)")
        try:
            info = super().frombuf(buf, encoding, errors)
        except tarfile.HeaderError as exc:
            if buf.count(0) == tarfile.BLOCKSIZE:
                raise  # the end-of-archive marker: tarfile stops here, as it should
            raise _Damaged(f"damaged member header ({exc})") from exc
        if info.type in _HEADER_DATA_TYPES and info.size > _MAX_HEADER_DATA:
            raise _Damaged(f"an extended header declares {info.size} bytes of metadata")
        return info


class _HeaderReader:
    """The archive stream as tarfile's header code reads it, with a budget.

    Before tarfile returns a member it reads all its headers: pax records, long names and
    a sparse member's map, each chaining to the next by recursion, and a GNU sparse map is
    read for as many entries as it declares, all kept in memory. A hostile chain or map
    would exhaust the stack or the memory (40 kB of gzip held 20 million entries for 25 s);
    the budget refuses it after a couple of MB.
    """

    def __init__(self, stream: _Fileobj) -> None:
        self.stream = stream
        self.left = _MAX_HEADER_BYTES
        self.headers = 1

    def read(self, size: int, /) -> bytes:
        if size > self.left:
            raise _Damaged(f"a member's headers (pax records, long names, sparse map) hold over {_MAX_HEADER_BYTES} bytes")
        self.left -= size
        return self.stream.read(size)

    def tell(self) -> int:
        return self.stream.tell()

    def seek(self, pos: int, /) -> object:
        return self.stream.seek(pos)

    def write(self, data: bytes, /) -> object:
        raise io.UnsupportedOperation("the archive is read, never written")

    def close(self) -> object:
        return None  # the stream is the TarFile's to close


@contextmanager
def _open_stream(fileobj: BinaryIO, archive_name: str, max_archive_bytes: int) -> Iterator[Iterator[_Entry]]:
    """Open a tar stream and give its members (directories left out) with safe names and any refusal."""
    try:
        # closed by the with-block below; this try is for the errors of opening alone
        tar = tarfile.open(fileobj=fileobj, mode="r|*", tarinfo=_CheckedTarInfo)  # noqa: SIM115
    except (*_HEADER_DAMAGE, _Damaged) as exc:
        raise BadInput(f"{archive_name}: not a readable tar archive ({_reason(exc)})") from exc
    with tar:
        yield _members(tar, archive_name, max_archive_bytes)


@dataclass(slots=True)
class _Entry:
    """A member as the stream reaches it; its data can be read once, before the next member."""

    tar: tarfile.TarFile
    member: tarfile.TarInfo
    name: str
    refusal: str | None
    archive_name: str

    def extract(self, target: Path, max_member_bytes: int) -> str | None:
        """Copy the member's data to ``target`` in chunks; a reason if it is refused.

        The copy stops at the declared size or ``max_member_bytes``, whichever is smaller,
        so a member cannot write more than it admits to. Damage in the data raises
        BadInput, with the partial file deleted.
        """
        limit = min(self.member.size, max_member_bytes)
        source = self.tar.extractfile(self.member)
        if source is None:
            return "refused: no data to extract"
        written = 0
        try:
            # "xb" never follows or replaces an existing file, a symlink planted in dest included
            with source, target.open("xb") as out:
                while chunk := source.read(_CHUNK):
                    written += len(chunk)
                    if written > limit:
                        break
                    out.write(chunk)
        except _DAMAGE as exc:
            target.unlink(missing_ok=True)
            raise BadInput(f"{self.archive_name}: truncated or damaged archive in member {self.name} ({_reason(exc)})") from exc
        except BaseException:
            target.unlink(missing_ok=True)  # no partial file left behind, whatever stopped the copy
            raise
        if written > limit:
            target.unlink(missing_ok=True)
            return f"refused: the member holds more than the {limit} bytes allowed"
        return None

    def skip(self) -> None:
        """Read past what is left of the data as it is stored, up to the next header.

        Not through ``extractfile``, which gives a sparse member's holes as zeros: a 132-byte
        member claiming 10 GiB of holes would be inflated in full. Nor by letting tarfile
        seek, which on a stream reads block by block up to the *declared* size even after
        the data has run out: a header claiming 2**60 bytes would spin for ever. Reading it
        here stops where the data really ends.
        """
        stream = self.tar.fileobj
        assert stream is not None  # an open archive
        left = self.tar.offset - stream.tell()  # tarfile's offset: where the next header starts
        try:
            while left > 0:
                chunk = stream.read(min(left, _CHUNK))
                if not chunk:
                    raise EOFError(f"the data ends {left} bytes before its declared end")
                left -= len(chunk)
        except _DAMAGE as exc:
            raise BadInput(f"{self.archive_name}: truncated or damaged archive in member {self.name} ({_reason(exc)})") from exc


def _members(tar: tarfile.TarFile, archive_name: str, max_archive_bytes: int) -> Iterator[_Entry]:
    count = 0
    while True:
        try:
            member = tar.next()
        except (*_HEADER_DAMAGE, _Damaged) as exc:
            raise BadInput(f"{archive_name}: truncated or damaged archive after {count} members ({_reason(exc)})") from exc
        if member is None:
            return
        count += 1
        name, refusal = _safe_name(member.name)
        if tar.offset > max_archive_bytes:  # tarfile's offset is where this member's stored data ends, uncompressed
            raise BadInput(
                f"{archive_name}: member {name} would take the archive past the limit of {max_archive_bytes} bytes"
                f" read per archive ({member.size} bytes); the rest is not read"
            )
        if member.isdir():
            continue
        if refusal is None and not member.isreg():
            refusal = f"refused: not a regular file ({_kind(member)})"
        entry = _Entry(tar, member, name, refusal, archive_name)
        yield entry
        entry.skip()
        tar.members.clear()  # type: ignore[attr-defined]  # tarfile keeps every header it read: over millions of members that grows without end


def _reason(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


def _kind(member: tarfile.TarInfo) -> str:
    if member.issym():
        return f"symbolic link to {_printable(member.linkname)}"
    if member.islnk():
        return f"hard link to {_printable(member.linkname)}"
    if member.ischr() or member.isblk():
        return "device"
    if member.isfifo():
        return "FIFO"
    return f"tar type {member.type!r}"


def _printable(text: str) -> str:
    """A name safe to log: control characters and undecodable bytes replaced, length bounded."""
    shown = "".join(char if char.isprintable() and not 0xD800 <= ord(char) <= 0xDFFF else "?" for char in text)
    return shown if len(shown) <= _MAX_NAME else shown[: _MAX_NAME - 3] + "..."


def _safe_name(raw: str) -> tuple[str, str | None]:
    """The member's name made relative and clean, or a refusal for a name that tries to escape."""
    shown = _printable(raw)
    if "\x00" in raw:
        return shown, "refused: NUL in the member name"
    if "\\" in raw:
        return shown, "refused: backslash in the member name (a Windows path)"
    if re.match(r"^[A-Za-z]:", raw):
        return shown, "refused: drive letter in the member name"
    if raw.startswith("/"):
        return shown, "refused: absolute member name"
    parts = [part for part in raw.split("/") if part not in ("", ".")]
    if ".." in parts:
        return shown, "refused: '..' in the member name"
    if not parts:
        return shown, "refused: empty member name"
    clean = "/".join(parts)
    if len(clean) > _MAX_NAME:
        return shown, f"refused: the member name is {len(clean)} characters long, over the limit of {_MAX_NAME}"
    return _printable(clean), None


def _too_big(size: int, limit: int) -> str:
    return f"refused: {size} bytes is over the limit of {limit} bytes per member"


def _flat_target(dest: Path, name: str) -> Path:
    """A new file in ``dest`` named after the member, with no path in it: "0001/x.pdf" -> "0001_x.pdf"."""
    stem, dot, suffix = name.rpartition(".")
    if not dot:
        stem, suffix = name, ""
    flat = _UNSAFE_FLAT.sub("_", stem.replace("/", "_")).lstrip("._-")[:_MAX_FLAT_NAME] or "member"
    suffix = _UNSAFE_FLAT.sub("_", suffix)[:16]
    candidate = dest / f"{flat}.{suffix}" if suffix else dest / flat
    counter = 1
    while candidate.exists():  # two members may flatten alike ("a/b.pdf", "a_b.pdf")
        counter += 1
        candidate = dest / (f"{flat}-{counter}.{suffix}" if suffix else f"{flat}-{counter}")
    return candidate
