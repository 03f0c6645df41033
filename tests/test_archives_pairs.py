"""A JATS XML and its PDF inside one tar are one article, its structure from the XML and its pages
from the PDF, when they meet within the pairing window of the stream: by stem (``a.nxml``,
``a.pdf``) or by the XML's PMCID (``PMC4417228.pdf``), in either order. A member that leaves the
window unpaired is read alone, another XML (a file list) is no input, and nothing extracted is left
behind."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

from paperpyramid.db.sqlite import sqlite3
from paperpyramid.ingestion import ingest
from paperpyramid.ingestion.pairing import WINDOW, TarPairs
from paperpyramid.settings import IngestSettings, Settings
from tests.conftest import GOLD, SAMPLE

PLOS = "plos-one-2014-fanged-frog-internal-fertilization"
WHEAT = "mdpi-metabolites-2014-durum-wheat-volatiles"


def pack(target: Path, members: list[tuple[str, bytes]]) -> Path:
    with tarfile.open(target, "w:gz") as tar:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return target


def rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as connection:
        return list(connection.execute(sql).fetchall())


def wheat_with_pmcid() -> bytes:
    xml = (GOLD / f"{WHEAT}.nxml").read_text(encoding="utf-8")
    return xml.replace("<article-meta>", '<article-meta><article-id pub-id-type="pmc">4417228</article-id>', 1).encode()


def test_pairs_in_a_tar_by_stem_and_by_pmcid_in_either_order(tmp_path: Path) -> None:
    package = pack(
        tmp_path / "pairs.tar.gz",
        [
            (f"a/{PLOS}.nxml", (GOLD / f"{PLOS}.nxml").read_bytes()),
            ("a/filelist.xml", b"<?xml version='1.0'?><files><file>x</file></files>"),
            (f"b/{PLOS}.pdf", (SAMPLE / f"{PLOS}.pdf").read_bytes()),  # another folder: the stem pairs them
            ("PMC4417228.pdf", (SAMPLE / f"{WHEAT}.pdf").read_bytes()),  # the PDF first, named after the XML's PMCID
            ("metabolites-04-00427.nxml", wheat_with_pmcid()),
        ],
    )
    db = tmp_path / "c.sqlite"
    settings = Settings(ingest=IngestSettings(workers=0, embed=False))
    summary = ingest([package], db, settings)
    assert sorted((result.source_uri.rsplit("#", 1)[1], result.status) for result in summary.results) == [
        (f"a/{PLOS}.nxml", "done"),
        ("metabolites-04-00427.nxml", "done"),
    ]
    assert rows(db, "SELECT parser, pages FROM articles ORDER BY pages") == [("jats+embedded", 14), ("jats+embedded", 14)]
    assert rows(db, "SELECT page_number FROM contexts WHERE text LIKE '%digital calipers%'") == [(2,)]  # where the PDF prints it
    again = ingest([package], db, settings)
    assert again.count("done") == 0 and again.count("skipped") == 2 and rows(db, "SELECT count(*) FROM articles") == [(2,)]
    assert not list(tmp_path.glob("paperpyramid-scratch-*"))


def test_a_member_that_leaves_the_window_is_read_alone(tmp_path: Path) -> None:
    xml, pdf = tmp_path / "a.nxml", tmp_path / "a.pdf"
    xml.write_bytes((GOLD / f"{PLOS}.nxml").read_bytes())
    pdf.write_bytes(b"%PDF-1.4")
    fillers = []
    for index in range(WINDOW):
        filler = tmp_path / f"other-{index}.pdf"
        filler.write_bytes(b"%PDF-1.4 %" + bytes([index]))
        fillers.append(filler)
    pairs = TarPairs()
    out = list(pairs.add("t.tar#a.nxml", xml, "jats"))
    for filler in fillers:
        out += pairs.add(f"t.tar#{filler.name}", filler, "pdf")
    assert [(item.uri, item.kind) for item in out] == [("t.tar#a.nxml", "jats")]  # pushed out by the window, alone
    out = list(pairs.add("t.tar#a.pdf", pdf, "pdf")) + list(pairs.flush())
    assert [item.kind for item in out] == ["pdf"] * (WINDOW + 1) and all(item.temporary and item.sha256 for item in out)
