"""Bulk archives read as streams: arXiv-style PDF tars and PMC OA packages, honest and hostile,
built here with tarfile from the committed sample PDFs."""

from __future__ import annotations

import hashlib
import io
import os
import tarfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from paperpyramid.errors import BadInput
from paperpyramid.eval.gold import load_gold
from paperpyramid.ingestion.archives import ArchiveItem, is_archive, iter_tar_pdfs, read_pmc_package
from paperpyramid.parsers.jats import parse_jats

DATA = Path(__file__).parent / "data"
SAMPLE = DATA / "sample"
GOLD = DATA / "gold"
PLOS = "plos-one-2014-fanged-frog-internal-fertilization"
PDFS = {
    "0001/plos-one-2014.pdf": SAMPLE / f"{PLOS}.pdf",
    "0001/mdpi-2014.PDF": SAMPLE / "mdpi-metabolites-2014-durum-wheat-volatiles.pdf",
    "0002/bmc-2014.pdf": SAMPLE / "bmc-health-serv-res-2014-barriers.pdf",
}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def add_bytes(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def build(members: dict[str, bytes], mode: str = "w") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as tar:  # type: ignore[call-overload]
        for name, data in members.items():
            add_bytes(tar, name, data)
    return buffer.getvalue()


def arxiv_members() -> dict[str, bytes]:
    members = {name: path.read_bytes() for name, path in PDFS.items()}
    members["0002/README.txt"] = b"not a pdf"
    return members


def files_under(root: Path) -> set[Path]:
    return {Path(dirpath, name) for dirpath, _, names in os.walk(root) for name in names}


def collect(stream: Iterator[ArchiveItem]) -> list[ArchiveItem]:
    return list(stream)


# --------------------------------------------------------------------------- honest archives


@pytest.mark.parametrize("mode", ["w", "w:gz"])
def test_arxiv_tar_yields_its_pdfs_byte_for_byte(tmp_path: Path, mode: str) -> None:
    archive = build(arxiv_members(), mode)
    dest = tmp_path / "out"
    items = collect(iter_tar_pdfs(io.BytesIO(archive), dest, archive_name="arXiv_pdf_0001_001.tar"))
    assert [item.name for item in items] == list(PDFS)  # README.txt is no PDF: skipped without a word
    for item, original in zip(items, PDFS.values(), strict=True):
        assert item.error is None
        assert item.path is not None and item.path.parent == dest
        assert item.size == original.stat().st_size
        assert sha256(item.path) == sha256(original)
    assert items[0].path is not None and items[0].path.name == "0001_plos-one-2014.pdf"
    assert files_under(dest) == {item.path for item in items}


def test_the_stream_is_never_seeked(tmp_path: Path) -> None:
    class Pipe(io.RawIOBase):
        """A forward-only stream, like a bucket download or stdin."""

        def __init__(self, data: bytes) -> None:
            self.data = io.BytesIO(data)

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
            chunk = self.data.read(len(buffer))
            buffer[: len(chunk)] = chunk
            return len(chunk)

        def seekable(self) -> bool:
            return False

        def seek(self, offset: int, whence: int = 0) -> int:
            raise OSError("seek on a pipe")

        def tell(self) -> int:
            raise OSError("tell on a pipe")

    items = collect(iter_tar_pdfs(Pipe(build(arxiv_members(), "w:gz")), tmp_path, archive_name="pipe.tar.gz"))  # type: ignore[arg-type]
    assert [item.error for item in items] == [None, None, None]


def test_the_caller_can_delete_each_file_as_it_goes(tmp_path: Path) -> None:
    seen = 0
    for item in iter_tar_pdfs(io.BytesIO(build(arxiv_members())), tmp_path, archive_name="a.tar"):
        assert item.path is not None
        item.path.unlink()
        assert files_under(tmp_path) == set()  # one member on disk at a time, at most
        seen += 1
    assert seen == 3


# --------------------------------------------------------------------------- hostile archives


def hostile_archive() -> bytes:
    pdf = PDFS["0002/bmc-2014.pdf"].read_bytes()
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        add_bytes(tar, "../evil.pdf", b"%PDF-1.4 dot-dot")
        add_bytes(tar, "/abs/evil.pdf", b"%PDF-1.4 absolute")
        add_bytes(tar, "a/../../evil.pdf", b"%PDF-1.4 hidden dot-dot")
        add_bytes(tar, "C:\\evil.pdf", b"%PDF-1.4 windows")
        link = tarfile.TarInfo("link.pdf")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tar.addfile(link)
        hard = tarfile.TarInfo("hard.pdf")
        hard.type, hard.linkname = tarfile.LNKTYPE, "../outside.pdf"
        tar.addfile(hard)
        device = tarfile.TarInfo("dev.pdf")
        device.type = tarfile.CHRTYPE
        tar.addfile(device)
        add_bytes(tar, "good/ok.pdf", pdf)
    return buffer.getvalue()


def test_escapes_and_links_are_refused_and_nothing_lands_outside_dest(tmp_path: Path) -> None:
    dest = tmp_path / "work" / "dest"
    before = files_under(tmp_path)
    items = collect(iter_tar_pdfs(io.BytesIO(hostile_archive()), dest, archive_name="hostile.tar"))
    reasons = {item.name: item.error for item in items}
    assert reasons["../evil.pdf"] == "refused: '..' in the member name"
    assert reasons["/abs/evil.pdf"] == "refused: absolute member name"
    assert reasons["a/../../evil.pdf"] == "refused: '..' in the member name"
    assert reasons["C:\\evil.pdf"] is not None and "backslash" in reasons["C:\\evil.pdf"]
    assert reasons["link.pdf"] == "refused: not a regular file (symbolic link to /etc/passwd)"
    assert reasons["hard.pdf"] == "refused: not a regular file (hard link to ../outside.pdf)"
    assert reasons["dev.pdf"] == "refused: not a regular file (device)"
    assert reasons["good/ok.pdf"] is None
    after = files_under(tmp_path)
    assert after - before == {dest / "good_ok.pdf"}
    assert not list(tmp_path.rglob("evil*")) and not list(tmp_path.rglob("*outside*"))


def test_a_planted_symlink_in_dest_is_not_followed(tmp_path: Path) -> None:
    dest = tmp_path / "dest"
    dest.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (dest / "x.pdf").symlink_to(victim)
    items = collect(iter_tar_pdfs(io.BytesIO(build({"x.pdf": b"%PDF-1.4 payload"})), dest, archive_name="a.tar"))
    assert items[0].path == dest / "x-2.pdf"
    assert victim.read_text() == "precious"


def test_members_over_the_size_limit_are_refused_unread(tmp_path: Path) -> None:
    items = collect(iter_tar_pdfs(io.BytesIO(build(arxiv_members())), tmp_path, max_member_bytes=300_000, archive_name="a.tar"))
    refused = {item.name: item.error for item in items if item.error}
    # the PLOS and MDPI PDFs are over 300 kB, BMC's is under
    assert set(refused) == {"0001/plos-one-2014.pdf", "0001/mdpi-2014.PDF"}
    assert all(error is not None and "over the limit of 300000 bytes" in error for error in refused.values())
    assert files_under(tmp_path) == {tmp_path / "0002_bmc-2014.pdf"}


@pytest.mark.parametrize("declared", [5 * 2**30, 2**60])
def test_a_member_lying_about_its_size_is_refused_and_the_lie_found(tmp_path: Path, declared: int) -> None:
    """A header claiming gigabytes (or 2**60 bytes) over a few bytes of data: refused without
    reading, and the archive then reads as truncated, without spinning on the claimed size."""
    first_member = build({"first.pdf": b"%PDF-1.4 small"})[: tarfile.BLOCKSIZE * 2]  # header + one data block
    liar = tarfile.TarInfo("huge.pdf")
    liar.size = declared
    archive = first_member + liar.tobuf(format=tarfile.GNU_FORMAT) + b"%PDF-1.4 only this".ljust(tarfile.BLOCKSIZE, b"\0")
    items: list[ArchiveItem] = []
    started = time.monotonic()
    with pytest.raises(BadInput, match="truncated or damaged"):
        # the per-archive limit is moved out of the way: the lie itself must be found
        for item in iter_tar_pdfs(io.BytesIO(archive), tmp_path, max_archive_bytes=2**62, archive_name="liar.tar"):
            items.append(item)
    assert time.monotonic() - started < 5
    assert [(item.name, item.error is None) for item in items] == [("first.pdf", True), ("huge.pdf", False)]
    assert items[1].size == declared and items[1].error is not None and "over the limit" in items[1].error
    assert files_under(tmp_path) == {tmp_path / "first.pdf"}


@pytest.mark.parametrize("mode", ["w", "w:gz"])
def test_a_truncated_archive_raises_after_the_members_before_the_cut(tmp_path: Path, mode: str) -> None:
    members = {name: path.read_bytes() for name, path in PDFS.items()}
    archive = build(members, mode)
    cut = archive[: int(len(archive) * 0.85)]  # inside the last member's data
    items: list[ArchiveItem] = []
    with pytest.raises(BadInput, match="truncated or damaged archive") as caught:
        for item in iter_tar_pdfs(io.BytesIO(cut), tmp_path, archive_name="cut.tar"):
            items.append(item)
    assert str(caught.value).startswith("cut.tar: ")
    assert [item.name for item in items] == list(PDFS)[:2]
    assert [sha256(item.path) for item in items if item.path] == [sha256(path) for path in list(PDFS.values())[:2]]
    assert files_under(tmp_path) == {item.path for item in items}  # no partial third file


def test_an_archive_cut_between_members_is_still_truncated(tmp_path: Path) -> None:
    """tarfile itself ends quietly at a member boundary; the missing end marker gives it away."""
    data = b"%PDF-1.4 " + b"x" * 1000
    whole = build({"a.pdf": data, "b.pdf": data})
    one_member = tarfile.BLOCKSIZE + 1024  # header + data padded to 512-byte blocks
    items: list[ArchiveItem] = []
    with pytest.raises(BadInput, match="without its end-of-archive marker"):
        for item in iter_tar_pdfs(io.BytesIO(whole[:one_member]), tmp_path, archive_name="cut.tar"):
            items.append(item)
    assert [item.name for item in items] == ["a.pdf"]


def test_an_oversized_extended_header_is_refused(tmp_path: Path) -> None:
    """tarfile reads a pax header's data into memory whole; 2 GiB of it (a small gzip bomb) must not be read."""
    header = tarfile.TarInfo("././@PaxHeader")
    header.type = tarfile.XHDTYPE
    header.size = 2**31
    archive = build({"a.pdf": b"%PDF-1.4 a"})[: 2 * tarfile.BLOCKSIZE] + header.tobuf(format=tarfile.USTAR_FORMAT) + b"\0" * 4096
    items: list[ArchiveItem] = []
    with pytest.raises(BadInput, match="an extended header declares 2147483648 bytes"):
        for item in iter_tar_pdfs(io.BytesIO(archive), tmp_path, archive_name="pax.tar"):
            items.append(item)
    assert [item.name for item in items] == ["a.pdf"]


@pytest.mark.parametrize("data", [b"", b"%PDF-1.4 not an archive at all" * 40, b"\x1f\x8b\x08\x00garbage"])
def test_not_an_archive(tmp_path: Path, data: bytes) -> None:
    with pytest.raises(BadInput, match="not a readable tar archive"):
        collect(iter_tar_pdfs(io.BytesIO(data), tmp_path, archive_name="x.tar"))


def test_is_archive() -> None:
    assert all(is_archive(name) for name in ["arXiv_pdf_0001_001.tar", "PMC123.tar.gz", "a.TGZ"])
    assert not any(is_archive(name) for name in ["paper.pdf", "a.tar.bz2", "a.zip", "tar"])


# --------------------------------------------------------------------------- PMC packages


def pmc_package(supplement_first: bool = True) -> bytes:
    """A PMC OA package: folder/PMCxxxx.nxml + its PDF + an image + a bigger supplementary PDF."""
    members = {
        "PMC4283955/pone.0115884.s001.pdf": (SAMPLE / "mdpi-metabolites-2014-durum-wheat-volatiles.pdf").read_bytes() * 3,
        "PMC4283955/pone.0115884.nxml": (GOLD / f"{PLOS}.nxml").read_bytes(),
        "PMC4283955/pone.0115884.g001.jpg": b"\xff\xd8\xff\xe0 not really a jpeg",
        "PMC4283955/pone.0115884.pdf": (SAMPLE / f"{PLOS}.pdf").read_bytes(),
    }
    if not supplement_first:
        members = dict(reversed(list(members.items())))
    return build(members, "w:gz")


@pytest.mark.parametrize("supplement_first", [True, False])
def test_pmc_package_gives_the_xml_and_its_own_pdf(tmp_path: Path, supplement_first: bool) -> None:
    dest = tmp_path / "pkg"
    package = read_pmc_package(io.BytesIO(pmc_package(supplement_first)), dest, archive_name="PMC4283955.tar.gz")
    assert package.errors == []
    assert package.nxml is not None and package.pdf is not None
    assert sha256(package.nxml) == sha256(GOLD / f"{PLOS}.nxml")
    # the larger supplementary PDF lost to the PDF named like the XML, and was deleted
    assert sha256(package.pdf) == sha256(SAMPLE / f"{PLOS}.pdf")
    assert files_under(tmp_path) == {package.nxml, package.pdf}

    document = parse_jats(package.nxml, pdf_path=package.pdf)
    titles = [s.title for s in document.sections if s.title not in ("Abstract", "Acknowledgements") and s.number != "ref"]
    assert titles == load_gold(GOLD / f"{PLOS}.nxml").section_titles
    assert document.pages == 14 and len(document.references) == 25


def test_pmc_package_without_a_pdf_says_so(tmp_path: Path) -> None:
    archive = build({"PMC1/a.nxml": (GOLD / f"{PLOS}.nxml").read_bytes(), "PMC1/../../x.pdf": b"%PDF"}, "w:gz")
    package = read_pmc_package(io.BytesIO(archive), tmp_path, archive_name="PMC1.tar.gz")
    assert package.nxml is not None and package.pdf is None
    assert package.errors == ["PMC1/../../x.pdf: refused: '..' in the member name", "no .pdf in the package"]


def test_a_truncated_pmc_package_leaves_nothing_behind(tmp_path: Path) -> None:
    archive = pmc_package()
    with pytest.raises(BadInput, match="PMC4283955.tar.gz: truncated or damaged"):
        read_pmc_package(io.BytesIO(archive[: len(archive) - 50_000]), tmp_path, archive_name="PMC4283955.tar.gz")
    assert files_under(tmp_path) == set()
