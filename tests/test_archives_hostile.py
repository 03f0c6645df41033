"""Archives built to cost: members claiming terabytes, names too long to log, header chains and
sparse maps that tarfile would follow for ever. Each is a few hundred bytes to a few kB here,
refused in seconds with a reason a person reads, and the honest members beside it still come out."""

from __future__ import annotations

import gzip
import io
import sqlite3
import tarfile
import time
from pathlib import Path

import pytest

from paperpyramid.errors import BadInput
from paperpyramid.ingestion import ingest
from paperpyramid.ingestion.archives import DEFAULT_MAX_MEMBER_BYTES, ArchiveItem, iter_tar_pdfs, read_pmc_package
from paperpyramid.settings import IngestSettings, Settings

SAMPLE = Path(__file__).parent / "data" / "sample"
PDF = (SAMPLE / "bmc-health-serv-res-2014-barriers.pdf").read_bytes()
GIB = 2**30


def member(name: str, data: bytes, fmt: int = tarfile.GNU_FORMAT) -> bytes:
    """One member, header and data padded to whole blocks."""
    info = tarfile.TarInfo(name)
    info.size = len(data)
    padding = -len(data) % tarfile.BLOCKSIZE
    return info.tobuf(format=fmt) + data + b"\0" * padding


END = b"\0" * (2 * tarfile.BLOCKSIZE)


def sparse_member(name: str, claimed: int) -> bytes:
    """A GNU sparse member ('S') that stores one block and declares ``claimed`` bytes, the rest a hole.

    tarfile cannot write one, so its header is patched: the sparse map at byte 386 and the
    real size at 483, then the checksum again.
    """
    info = tarfile.TarInfo(name)
    info.type = tarfile.GNUTYPE_SPARSE
    info.size = tarfile.BLOCKSIZE
    header = bytearray(info.tobuf(format=tarfile.GNU_FORMAT))
    hole, stored = claimed - tarfile.BLOCKSIZE, tarfile.BLOCKSIZE  # the one block stored comes after the hole
    header[386:410] = tarfile.itn(hole, 12, tarfile.GNU_FORMAT) + tarfile.itn(stored, 12, tarfile.GNU_FORMAT)
    header[483:495] = tarfile.itn(claimed, 12, tarfile.GNU_FORMAT)
    header[148:156] = b" " * 8
    header[148:156] = b"%06o\0 " % sum(header)
    return bytes(header) + b"%PDF-1.4 the one block stored".ljust(tarfile.BLOCKSIZE, b"\0")


def read_all(archive: bytes, dest: Path, **limits: int) -> tuple[list[ArchiveItem], BadInput | None, float]:
    """Every item the archive yields, the BadInput that ended it (if one did) and the seconds taken."""
    items: list[ArchiveItem] = []
    started = time.monotonic()
    try:
        for item in iter_tar_pdfs(io.BytesIO(archive), dest, archive_name="dump.tar.gz", **limits):
            items.append(item)
    except BadInput as exc:
        return items, exc, time.monotonic() - started
    return items, None, time.monotonic() - started


# --------------------------------------------------------------------------- sizes


def test_a_sparse_member_claiming_10_gib_is_refused_in_seconds_and_the_archive_goes_on(tmp_path: Path) -> None:
    """Its holes used to be inflated to be skipped: 10 GiB of zeros read for 10-55 s of CPU
    after the member had already been refused."""
    assert len(gzip.compress(sparse_member("0001/huge.pdf", 10 * GIB) + END)) < 200  # the claim costs the attacker nothing
    archive = gzip.compress(sparse_member("0001/huge.pdf", 10 * GIB) + member("0001/after.pdf", PDF) + END)
    items, error, seconds = read_all(archive, tmp_path)
    assert seconds < 5
    assert error is None
    assert [(item.name, item.error) for item in items] == [
        ("0001/huge.pdf", f"refused: {10 * GIB} bytes is over the limit of {DEFAULT_MAX_MEMBER_BYTES} bytes per member"),
        ("0001/after.pdf", None),
    ]
    assert items[1].path is not None and items[1].path.read_bytes() == PDF
    assert sorted(path.name for path in tmp_path.iterdir()) == ["0001_after.pdf"]


class CountingReader(io.BytesIO):
    """A source that counts the bytes taken from it: what a bucket download would have to send."""

    taken = 0

    def read(self, size: int | None = -1, /) -> bytes:
        chunk = super().read(size)
        self.taken += len(chunk)
        return chunk


def test_an_archive_stops_at_the_member_that_would_pass_max_archive_bytes_without_inflating_it(tmp_path: Path) -> None:
    """A gzip bomb's member (64 MiB of zeros in 64 kB) is refused from its header, before its data
    is decompressed: most of the compressed file is never even downloaded."""
    bomb = member("0001/first.pdf", b"%PDF-1.4 small") + member("0001/zeros.bin", bytes(64 * 2**20)) + member("0001/last.pdf", PDF) + END
    source = CountingReader(gzip.compress(bomb))
    items: list[ArchiveItem] = []
    started = time.monotonic()
    with pytest.raises(BadInput) as caught:
        for item in iter_tar_pdfs(source, tmp_path, max_archive_bytes=16 * 2**20, archive_name="bomb.tar.gz"):
            items.append(item)
    assert time.monotonic() - started < 5
    assert str(caught.value) == (
        f"bomb.tar.gz: member 0001/zeros.bin would take the archive past the limit of {16 * 2**20} bytes read per archive"
        f" ({64 * 2**20} bytes); the rest is not read"
    )
    assert [(item.name, item.error) for item in items] == [("0001/first.pdf", None)]
    zeros_gzipped = len(gzip.compress(bytes(64 * 2**20)))
    assert source.taken < zeros_gzipped / 4


def test_max_archive_bytes_counts_uncompressed_bytes_and_lets_an_honest_archive_through(tmp_path: Path) -> None:
    honest = member("a.pdf", PDF) + member("b.pdf", PDF) + END
    items, error, _ = read_all(gzip.compress(honest), tmp_path / "fits", max_archive_bytes=len(honest))
    assert error is None and [item.error for item in items] == [None, None]
    items, error, _ = read_all(gzip.compress(honest), tmp_path / "over", max_archive_bytes=len(honest) - 2 * tarfile.BLOCKSIZE - 1)
    assert error is not None and "member b.pdf would take the archive past the limit" in str(error)
    assert [item.name for item in items] == ["a.pdf"]


def test_a_pmc_package_over_max_archive_bytes_is_refused_and_leaves_nothing(tmp_path: Path) -> None:
    package = gzip.compress(member("PMC1/a.pdf", PDF) + member("PMC1/a.g001.tif", bytes(8 * 2**20)) + END)
    with pytest.raises(BadInput, match=r"PMC1\.tar\.gz: member PMC1/a\.g001\.tif would take the archive past the limit of 1048576 bytes"):
        read_pmc_package(io.BytesIO(package), tmp_path, max_archive_bytes=2**20, archive_name="PMC1.tar.gz")
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- names


@pytest.mark.parametrize("fmt", [tarfile.GNU_FORMAT, tarfile.PAX_FORMAT], ids=["gnu-long-name", "pax-path"])
def test_a_pdf_named_over_300_characters_is_refused_not_dropped(tmp_path: Path, fmt: int) -> None:
    """Its name was shown cut to 300 characters ("....pdf" became "..."), so it no longer looked
    like a PDF and vanished without a log row."""
    long_name = "0001/" + "x" * 400 + ".pdf"
    just_fits = "0001/" + "y" * 291 + ".pdf"  # 300 characters: still a name the log shows whole
    archive = member(long_name, PDF, fmt) + member(just_fits, PDF, fmt) + END
    items, error, _ = read_all(archive, tmp_path)
    assert error is None
    assert len(items) == 2
    refused, extracted = items
    assert refused.error == "refused: the member name is 409 characters long, over the limit of 300"
    assert refused.path is None and refused.name == long_name[:297] + "..."
    assert extracted.name == just_fits and extracted.error is None and extracted.path is not None
    assert [path.name for path in tmp_path.iterdir()] == [extracted.path.name]


def test_ingest_logs_the_long_named_pdf_as_failed(tmp_path: Path) -> None:
    dump = tmp_path / "dump"
    dump.mkdir()
    long_name = "0001/" + "x" * 400 + ".pdf"
    (dump / "arXiv_pdf_0001_001.tar").write_bytes(member(long_name, PDF) + member("0001/short.pdf", PDF) + END)
    db = tmp_path / "c.sqlite"
    ingest([dump], db, Settings(ingest=IngestSettings(workers=0)))
    with sqlite3.connect(db) as connection:
        rows = sorted(connection.execute("SELECT status, error FROM ingest_log").fetchall())
    assert rows[0][0] == "done"
    assert rows[1][0] == "failed" and "the member name is 409 characters long, over the limit of 300" in rows[1][1]
    assert len(rows) == 2


# --------------------------------------------------------------------------- headers tarfile would follow for ever


def test_a_chain_of_long_name_headers_is_damage_not_a_recursion_error(tmp_path: Path) -> None:
    """tarfile reads each header after a long-name header by recursion: 3,000 of them (3 MB,
    a few kB gzipped) overflowed the stack and the RecursionError ended the whole run."""
    link = tarfile.TarInfo("././@LongLink")
    link.type, link.size = tarfile.GNUTYPE_LONGNAME, 6
    chain = (link.tobuf(format=tarfile.USTAR_FORMAT) + b"a.pdf".ljust(tarfile.BLOCKSIZE, b"\0")) * 3000
    archive = gzip.compress(member("first.pdf", PDF) + chain + member("a.pdf", PDF) + END)
    items, error, seconds = read_all(archive, tmp_path)
    assert error is not None and "truncated or damaged archive after 1 members (over 8 extended headers chained" in str(error)
    assert [(item.name, item.error) for item in items] == [("first.pdf", None)]
    assert seconds < 5


def pax_sparse_member(name: str, sparse_map: bytes) -> bytes:
    """A pax member in GNU sparse format 1.0, whose sparse map opens its data."""
    info = tarfile.TarInfo(name)
    info.size = len(sparse_map)
    info.pax_headers = {"GNU.sparse.major": "1", "GNU.sparse.minor": "0", "GNU.sparse.realsize": "100"}
    return info.tobuf(format=tarfile.PAX_FORMAT) + sparse_map + b"\0" * (-len(sparse_map) % tarfile.BLOCKSIZE)


def test_a_garbage_sparse_map_is_damage_not_a_value_error(tmp_path: Path) -> None:
    archive = member("first.pdf", PDF) + pax_sparse_member("x.pdf", b"zz") + END
    items, error, _ = read_all(archive, tmp_path)
    assert error is not None and str(error).startswith("dump.tar.gz: truncated or damaged archive after 1 members (")
    assert [item.name for item in items] == ["first.pdf"]


def test_an_endless_sparse_map_is_refused_after_a_few_mb(tmp_path: Path) -> None:
    """A map declaring a billion entries, then 2 million of them (4 MB, 8 kB gzipped): tarfile
    would read them all into memory (40 kB of gzip gave 20 million entries, 25 s, 275 MB)."""
    sparse_map = b"1000000000\n" + b"0\n" * 2_000_000
    archive = gzip.compress(member("first.pdf", PDF) + pax_sparse_member("x.pdf", sparse_map) + END)
    items, error, seconds = read_all(archive, tmp_path)
    assert error is not None and "a member's headers (pax records, long names, sparse map) hold over 2097152 bytes" in str(error)
    assert [item.name for item in items] == ["first.pdf"]
    assert seconds < 10


@pytest.mark.slow
def test_a_dump_of_many_members_keeps_no_memory_per_member(tmp_path):
    """tarfile keeps every header it reads; over an arXiv dump that grew without end (100,000
    members: RSS 107 -> 153 MB before, 69 -> 70 MB now)."""
    import tracemalloc

    packed = io.BytesIO()
    data = b"%PDF-1.4\n" + b"x" * 100
    with tarfile.open(fileobj=packed, mode="w") as tar:
        for index in range(20_000):
            info = tarfile.TarInfo(f"arXiv/{index:06d}.pdf")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    packed.seek(0)
    marks: dict[int, int] = {}
    tracemalloc.start()
    try:
        for count, item in enumerate(iter_tar_pdfs(packed, tmp_path / "out"), 1):
            assert item.path is not None
            item.path.unlink()
            if count in (2_000, 20_000):
                marks[count] = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    growth = marks[20_000] - marks[2_000]
    # keeping every header cost 10.7 MB here; what remains (~1.9 MB) is one table of
    # CPython's interned strings (pathlib interns path parts), which does not shrink
    assert growth < 4_000_000, f"{growth} bytes kept over 18,000 members"
