"""Reading a source bundle: a directory, a tar (plain or gzipped), a ``.tex``, or a gzipped ``.tex``.

arXiv's bulk source dumps hold, per paper, either a gzipped tar or one gzipped ``.tex``, and
their names do not say which: the kind is told from the bytes (gzip magic, the tar header's
``ustar`` mark, a PDF's ``%PDF``). Only text members are read (``.tex``, ``.bbl``, ``.bib``,
``.sty``, ...); every member's declared size is checked against :class:`LatexLimits` before
anything is read, so a 10 GiB sparse member is refused from its header alone.
"""

from __future__ import annotations

import io
import os
import tarfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from paperpyramid.parsers.latex.limits import BadSource, LatexLimits

__all__ = ["Bundle", "read_bundle"]

#: members read as text; anything else (figures, PDFs of figures) is only counted
TEXT_SUFFIXES = frozenset({".tex", ".ltx", ".latex", ".bbl", ".bib", ".sty", ".def", ".cfg", ".txt", ".tikz", ".inc", ".clo"})
_GZIP = b"\x1f\x8b"


@dataclass
class Bundle:
    """The text files of one source bundle, by their path inside it (POSIX, no leading ``./``)."""

    name: str
    files: dict[str, str] = field(default_factory=dict)

    def get(self, path: str) -> str | None:
        return self.files.get(path)


def read_bundle(source: Path | bytes, *, name: str, limits: LatexLimits) -> Bundle:
    """The bundle at ``source`` (a directory or file path, or a file's bytes); raises :class:`BadSource`."""
    if isinstance(source, Path) and source.is_dir():
        return _read_directory(source, name, limits)
    if isinstance(source, Path):
        size = source.stat().st_size
        if size > limits.max_total_bytes:
            raise BadSource(f"{name}: {_size(size)} is over the bundle limit of {_size(limits.max_total_bytes)}")
        data = source.read_bytes()
        bundle = _read_bytes(data, name or source.name, limits)
        stem = source.name.removesuffix(".gz")
        stem = stem[: -len(PurePosixPath(stem).suffix)] if PurePosixPath(stem).suffix.lower() in (".tex", ".ltx") else stem
        bbl = source.with_name(stem + ".bbl")  # "2101.00001.gz" -> "2101.00001.bbl", not "2101.bbl"
        if len(bundle.files) == 1 and bbl.is_file() and bbl.stat().st_size <= limits.max_file_bytes:
            # a lone .tex beside its compiled bibliography (as arXiv's "-compiled" pairs are kept)
            bundle.files[str(PurePosixPath(next(iter(bundle.files))).with_suffix(".bbl"))] = _decode(bbl.read_bytes(), name)
        return bundle
    return _read_bytes(bytes(source), name, limits)


def _read_bytes(data: bytes, name: str, limits: LatexLimits) -> Bundle:
    if data.startswith(_GZIP):
        data = _gunzip(data, name, limits)
    if _is_tar(data):
        return _read_tar(data, name, limits)
    if data.startswith(b"%PDF"):
        raise BadSource(f"{name}: a PDF, not a LaTeX source")
    stem = PurePosixPath(name).name
    for suffix in (".gz", ".tar"):
        stem = stem.removesuffix(suffix)
    if not stem.endswith(tuple(TEXT_SUFFIXES)):
        stem = f"{stem or 'main'}.tex"
    bundle = Bundle(name)
    bundle.files[stem] = _decode(data, name)
    return bundle


def _gunzip(data: bytes, name: str, limits: LatexLimits) -> bytes:
    """Inflate at most ``max_unpacked_bytes``: a gzip bomb is refused, not inflated."""
    inflater = zlib.decompressobj(wbits=47)  # gzip header, any window
    try:
        out = inflater.decompress(data, limits.max_unpacked_bytes + 1)
    except zlib.error as exc:
        raise BadSource(f"{name}: corrupt gzip data ({exc})") from exc
    if len(out) > limits.max_unpacked_bytes or inflater.unconsumed_tail:
        raise BadSource(f"{name}: inflates to more than {_size(limits.max_unpacked_bytes)}")
    return out


def _is_tar(data: bytes) -> bool:
    return len(data) >= 512 and data[257:262] == b"ustar"


def _read_tar(data: bytes, name: str, limits: LatexLimits) -> Bundle:
    bundle = Bundle(name)
    total = count = 0
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
            while (member := tar.next()) is not None:  # header by header: nothing read before it is checked
                count += 1
                if count > limits.max_files:
                    raise BadSource(f"{name}: more than {limits.max_files} members")
                if not member.isfile():
                    continue  # directories, links (never followed), devices
                if member.size > limits.max_file_bytes:
                    raise BadSource(
                        f"{name}: member {member.name!r} declares {_size(member.size)}, over the limit of {_size(limits.max_file_bytes)}"
                    )
                total += member.size
                if total > limits.max_total_bytes:
                    raise BadSource(f"{name}: members declare more than {_size(limits.max_total_bytes)} in all")
                path = _member_path(member.name)
                if path is None or PurePosixPath(path).suffix.lower() not in TEXT_SUFFIXES:
                    continue
                handle = tar.extractfile(member)
                if handle is None:
                    continue
                raw = handle.read(limits.max_file_bytes + 1)
                if b"\x00" in raw[:8192]:
                    continue  # a binary file with a text suffix
                bundle.files[path] = _decode(raw, name)
    except tarfile.TarError as exc:
        raise BadSource(f"{name}: corrupt tar ({exc})") from exc
    return bundle


def _member_path(raw: str) -> str | None:
    """A member's path inside the bundle, or None for an absolute path or one that climbs out with ``..``."""
    path = PurePosixPath(raw.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts:
        return None
    parts = [part for part in path.parts if part not in (".", "")]
    return "/".join(parts) or None


def _read_directory(root: Path, name: str, limits: LatexLimits) -> Bundle:
    bundle = Bundle(name or root.name)
    total = count = 0
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs.sort()
        for file_name in sorted(files):
            count += 1
            if count > limits.max_files:
                raise BadSource(f"{bundle.name}: more than {limits.max_files} files")
            path = Path(folder, file_name)
            if path.is_symlink() or not path.is_file():
                continue  # a link could point anywhere on this machine
            size = path.stat().st_size
            if size > limits.max_file_bytes:
                raise BadSource(f"{bundle.name}: {file_name} is {_size(size)}, over the limit of {_size(limits.max_file_bytes)}")
            total += size
            if total > limits.max_total_bytes:
                raise BadSource(f"{bundle.name}: files hold more than {_size(limits.max_total_bytes)} in all")
            if path.suffix.lower() not in TEXT_SUFFIXES:
                continue
            raw = path.read_bytes()
            if b"\x00" in raw[:8192]:
                continue
            bundle.files[path.relative_to(root).as_posix()] = _decode(raw, bundle.name)
    return bundle


def _decode(raw: bytes, name: str) -> str:
    """UTF-8, else Latin-1 (older sources); CRLF folded; NUL bytes mean a binary file."""
    if b"\x00" in raw[:8192]:
        raise BadSource(f"{name}: a binary file, not LaTeX")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _size(count: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"
