#!/usr/bin/env python3
"""PubMed file reading speed and memory: ``read_pubmed`` + ``parse_record`` on one core.

    python benchmarks/pubmed_speed.py [--records 30000] [--repeat 3] [--size-gb 1] [--keep DIR] [--json OUT]
        [--stages N [--baseline-src DIR]]

It writes, from the structure of the real record in ``tests/data/pubmed/pubmed-29768149.xml``:

- a baseline file of ``--records`` records (default 30,000, a real file's size), gzipped, varied:
  each record its own PMID, title, authors (1 to 12, some a ``<CollectiveName>``, most with
  affiliations, a few ending in an e-mail address), journal, date (``Year/Month/Day`` with the
  month a name or a number, a season, a ``<MedlineDate>`` range, or only an ``<ArticleDate>``),
  abstract (none, plain, or structured in labelled parts, 20 to 700 words, some with ``<sub>``,
  ``<sup>`` or ``<i>`` inside), MeSH headings, keywords, publication types, PMC ids, with the
  real record's other elements (chemicals, comments, history) around them; one record in a
  hundred is a ``<PubmedBookArticle>``;
- an update file: revised records (a higher ``Version``, or the same PMID again), new records and
  a ``<DeleteCitation>`` list at its end;
- with ``--size-gb N``: a file of about N GB of XML (gzipped as it is written, never held in
  memory) to show that the reader's memory does not grow with the file.

Each file is read in a fresh worker process (this script, ``--measure FILE``), pinned to one core:
every record through ``read_pubmed`` and ``parse_record``. The worker reports CPU seconds
(``time.process_time``: other processes on the machine do not count) and its peak RSS
(``ru_maxrss``, the interpreter and imports included). Records/s is the median of ``--repeat``
runs of the baseline file; the update file and the large file run once.

``--stages N`` also times an ingest's stages on the baseline file's first N records (parse, the
worker's cut, the writer's ``store_many``), each in a fresh process; ``--baseline-src DIR`` runs
them with the ``paperpyramid`` package in DIR as well (a copy of the code before a change),
alternating with this one, and prints the writer's ratio of the same run.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
REPO = HERE.parents[1]
REAL_RECORD = REPO / "tests" / "data" / "pubmed" / "pubmed-29768149.xml"
HEADER = (
    b'<?xml version="1.0" encoding="utf-8"?>\n'
    b'<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2025//EN" '
    b'"https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd">\n<PubmedArticleSet>\n'
)
FOOTER = b"</PubmedArticleSet>\n"
LABELS = ("BACKGROUND", "METHODS", "RESULTS", "CONCLUSIONS")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
JOURNALS = ("The New England journal of medicine", "The Lancet. Respiratory medicine", "PloS one", "Nature communications",
            "BMC pulmonary medicine", "The European respiratory journal", "Journal of asthma", "Thorax")  # fmt: skip
COLLECTIVES = ("SYGMA 1 Investigators", "GINA Science Committee", "COVID-19 Host Genetics Initiative")
GIVEN = ("Paul M", "J Mark", "Eric D", "Peter J", "Nanshan", "Christina", "Carin", "Rosa", "Stefan", "Helen K", "Ana", "Kenji")
FAMILY = ("O'Byrne", "FitzGerald", "Bateman", "Barnes", "Zhong", "Keen", "Jorup", "Lamarca", "Ivanov", "Reddel", "Silva", "Sato")


class Template:
    """The real record, cut into what varies and what is kept as it is."""

    def __init__(self, path: Path = REAL_RECORD) -> None:
        xml = path.read_text(encoding="utf-8")
        self.words = re.findall(r"[A-Za-z][a-z-]{2,}", " ".join(re.findall(r"<AbstractText[^>]*>(.*?)</AbstractText>", xml, re.S)))
        affiliation = re.search(r"<Affiliation>(.*?)</Affiliation>", xml, re.S)
        assert affiliation is not None, f"{path} has no affiliation"
        self.affiliations = [part.strip(" ;.") for part in affiliation.group(1).split(";")]
        self.mesh = re.findall(r"\t\t\t\t<MeshHeading>.*?</MeshHeading>\n", xml, re.S)
        self.publication_types = re.findall(r"\t\t\t\t\t<PublicationType [^>]*>[^<]*</PublicationType>\n", xml)
        self.chemicals = _between(xml, "\t\t\t<ChemicalList>", "</ChemicalList>\n")
        self.comments = _between(xml, "\t\t\t<CommentsCorrectionsList>", "</CommentsCorrectionsList>\n")
        self.history = _between(xml, "\t\t\t<History>", "</History>\n")
        self.databank = _between(xml, "\t\t\t\t<DataBankList", "</DataBankList>\n")


def _between(xml: str, start: str, end: str) -> str:
    at = xml.index(start)
    return xml[at : xml.index(end, at) + len(end)]


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _sentence(rng: random.Random, words: list[str], count: int) -> str:
    picked = [rng.choice(words) for _ in range(count)]
    if count > 8 and rng.random() < 0.15:  # inline markup, as abstracts have it
        at = rng.randrange(1, count - 1)
        picked[at] += rng.choice(("<sub>2</sub>", "<sup>+</sup>", " <i>in vitro</i>"))
    return " ".join(picked).capitalize() + "."


def _text(rng: random.Random, words: list[str], count: int) -> str:
    parts: list[str] = []
    while count > 0:
        size = min(count, rng.randint(8, 25))
        parts.append(_sentence(rng, words, size))
        count -= size
    return " ".join(parts)


def _abstract(rng: random.Random, template: Template) -> str:
    shape = rng.random()
    if shape < 0.15:
        return ""
    if shape < 0.6:
        body = _text(rng, template.words, rng.randint(20, 350))
        return f"\t\t\t\t<Abstract>\n\t\t\t\t\t<AbstractText>{body}</AbstractText>\n\t\t\t\t</Abstract>\n"
    parts = "".join(
        f'\t\t\t\t\t<AbstractText Label="{label}" NlmCategory="{label}">{_text(rng, template.words, rng.randint(20, 175))}</AbstractText>\n'
        for label in LABELS
    )
    return f"\t\t\t\t<Abstract>\n{parts}\t\t\t\t</Abstract>\n"


def _authors(rng: random.Random, template: Template, kind: str = "authors") -> str:
    lines = [f'\t\t\t\t<AuthorList Type="{kind}" CompleteYN="Y">\n']
    for index in range(rng.randint(1, 12)):
        if index == 0 and rng.random() < 0.08:
            lines.append(
                f'\t\t\t\t\t<Author ValidYN="Y">\n\t\t\t\t\t\t<CollectiveName>{rng.choice(COLLECTIVES)}</CollectiveName>\n\t\t\t\t\t</Author>\n'
            )
            continue
        given, family = rng.choice(GIVEN), rng.choice(FAMILY)
        initials = "".join(part[0] for part in given.split())
        lines.append(f'\t\t\t\t\t<Author ValidYN="Y">\n\t\t\t\t\t\t<LastName>{_escape(family)}</LastName>\n'
                     f"\t\t\t\t\t\t<ForeName>{given}</ForeName>\n\t\t\t\t\t\t<Initials>{initials}</Initials>\n")  # fmt: skip
        if rng.random() < 0.75:
            affiliation = "; ".join(rng.sample(template.affiliations, rng.randint(1, 3)))
            if rng.random() < 0.1:
                affiliation += f". Electronic address: {family.lower().replace(chr(39), '')}@example.org"
            lines.append(
                f"\t\t\t\t\t\t<AffiliationInfo>\n\t\t\t\t\t\t\t<Affiliation>{_escape(affiliation)}.</Affiliation>\n\t\t\t\t\t\t</AffiliationInfo>\n"
            )
        lines.append("\t\t\t\t\t</Author>\n")
    lines.append("\t\t\t\t</AuthorList>\n")
    return "".join(lines)


def _pub_date(rng: random.Random) -> tuple[str, str]:
    """A ``<PubDate>`` and the ``<ArticleDate>`` (or "") beside it."""
    year = rng.randint(1975, 2025)
    shape = rng.random()
    if shape < 0.55:
        month = rng.choice(MONTHS) if rng.random() < 0.6 else f"{rng.randint(1, 12):02d}"
        inner = f"<Year>{year}</Year>\n\t\t\t\t\t\t\t<Month>{month}</Month>\n\t\t\t\t\t\t\t<Day>{rng.randint(1, 28)}</Day>"
    elif shape < 0.75:
        inner = f"<Year>{year}</Year>\n\t\t\t\t\t\t\t<Month>{rng.choice(MONTHS)}</Month>"
    elif shape < 0.85:
        inner = f"<Year>{year}</Year>\n\t\t\t\t\t\t\t<Season>{rng.choice(('Spring', 'Summer', 'Fall', 'Winter'))}</Season>"
    elif shape < 0.95:
        medline = rng.choice((f"{year} Dec-{year + 1} Jan", f"{year} Spring", f"{year} Jul-Aug", f"{year}-{year + 1}"))
        inner = f"<MedlineDate>{medline}</MedlineDate>"
    else:
        electronic = f'\t\t\t\t<ArticleDate DateType="Electronic">\n\t\t\t\t\t<Year>{year}</Year>\n\t\t\t\t\t<Month>03</Month>\n\t\t\t\t\t<Day>09</Day>\n\t\t\t\t</ArticleDate>\n'
        return "", electronic
    return f"\t\t\t\t\t\t<PubDate>\n\t\t\t\t\t\t\t{inner}\n\t\t\t\t\t\t</PubDate>\n", ""


def make_record(pmid: int, rng: random.Random, template: Template, *, version: int = 1) -> bytes:
    """One ``<PubmedArticle>`` (one in a hundred a ``<PubmedBookArticle>``), as a file holds it."""
    if rng.random() < 0.01:
        return make_book(pmid, rng, template, version=version)
    title = _sentence(rng, template.words, rng.randint(5, 20))
    pub_date, article_date = _pub_date(rng)
    doi = f"10.5555/pm.{pmid}.{rng.randint(1, 9999)}"
    headings = "".join(rng.sample(template.mesh, rng.randint(0, min(20, len(template.mesh)))))
    mesh = f"\t\t\t<MeshHeadingList>\n{headings}\t\t\t</MeshHeadingList>\n" if headings else ""
    keywords = ""
    if rng.random() < 0.4:
        chosen = rng.sample(template.words, 4)
        keywords = (
            '\t\t\t<KeywordList Owner="NOTNLM">\n'
            + "".join(f'\t\t\t\t<Keyword MajorTopicYN="N">{word}</Keyword>\n' for word in chosen)
            + "\t\t\t</KeywordList>\n"
        )
    pmc = f'\t\t\t\t<ArticleId IdType="pmc">PMC{pmid + 1000000}</ArticleId>\n' if rng.random() < 0.3 else ""
    types = "".join(rng.sample(template.publication_types, rng.randint(1, 3)))
    record = (
        f'\t<PubmedArticle>\n\t\t<MedlineCitation Owner="NLM" Status="MEDLINE">\n\t\t\t<PMID Version="{version}">{pmid}</PMID>\n'
        f"\t\t\t<DateRevised>\n\t\t\t\t<Year>2024</Year>\n\t\t\t\t<Month>04</Month>\n\t\t\t\t<Day>10</Day>\n\t\t\t</DateRevised>\n"
        f'\t\t\t<Article PubModel="Print">\n\t\t\t\t<Journal>\n\t\t\t\t\t<ISSN IssnType="Electronic">1533-4406</ISSN>\n'
        f'\t\t\t\t\t<JournalIssue CitedMedium="Internet">\n\t\t\t\t\t\t<Volume>{rng.randint(1, 400)}</Volume>\n{pub_date}\t\t\t\t\t</JournalIssue>\n'
        f"\t\t\t\t\t<Title>{rng.choice(JOURNALS)}</Title>\n\t\t\t\t</Journal>\n\t\t\t\t<ArticleTitle>{title}</ArticleTitle>\n"
        f"\t\t\t\t<Pagination>\n\t\t\t\t\t<MedlinePgn>{rng.randint(1, 900)}-{rng.randint(901, 999)}</MedlinePgn>\n\t\t\t\t</Pagination>\n"
        f'\t\t\t\t<ELocationID EIdType="doi" ValidYN="Y">{doi}</ELocationID>\n{_abstract(rng, template)}{_authors(rng, template)}'
        f"\t\t\t\t<Language>eng</Language>\n{template.databank if rng.random() < 0.2 else ''}"
        f"\t\t\t\t<PublicationTypeList>\n{types}\t\t\t\t</PublicationTypeList>\n{article_date}\t\t\t</Article>\n"
        f"\t\t\t<MedlineJournalInfo>\n\t\t\t\t<Country>United States</Country>\n\t\t\t\t<MedlineTA>N Engl J Med</MedlineTA>\n"
        f"\t\t\t\t<NlmUniqueID>0255562</NlmUniqueID>\n\t\t\t</MedlineJournalInfo>\n{template.chemicals if rng.random() < 0.5 else ''}"
        f"\t\t\t<CitationSubset>IM</CitationSubset>\n{template.comments if rng.random() < 0.2 else ''}"
        f"{mesh}{keywords}"
        f"\t\t</MedlineCitation>\n\t\t<PubmedData>\n{template.history}\t\t\t<PublicationStatus>ppublish</PublicationStatus>\n"
        f'\t\t\t<ArticleIdList>\n\t\t\t\t<ArticleId IdType="pubmed">{pmid}</ArticleId>\n\t\t\t\t<ArticleId IdType="doi">{doi}</ArticleId>\n{pmc}'
        f"\t\t\t</ArticleIdList>\n\t\t</PubmedData>\n\t</PubmedArticle>\n"
    )
    return record.encode("utf-8")


def make_book(pmid: int, rng: random.Random, template: Template, *, version: int = 1) -> bytes:
    """A ``<PubmedBookArticle>``: a chapter of a book, its editors named on the book."""
    pub_date, _ = _pub_date(rng)
    pub_date = pub_date or f"\t\t\t\t\t\t<PubDate>\n\t\t\t\t\t\t\t<Year>{rng.randint(1990, 2025)}</Year>\n\t\t\t\t\t\t</PubDate>\n"
    record = (
        f'\t<PubmedBookArticle>\n\t\t<BookDocument>\n\t\t\t<PMID Version="{version}">{pmid}</PMID>\n'
        f'\t\t\t<ArticleIdList>\n\t\t\t\t<ArticleId IdType="bookaccession">NBK{pmid % 100000}</ArticleId>\n\t\t\t</ArticleIdList>\n'
        f"\t\t\t<Book>\n\t\t\t\t<Publisher>\n\t\t\t\t\t<PublisherName>University of Washington, Seattle</PublisherName>\n\t\t\t\t</Publisher>\n"
        f'\t\t\t\t<BookTitle book="gene">GeneReviews<sup>®</sup></BookTitle>\n{pub_date}'
        f"{_authors(rng, template, 'editors')}\t\t\t</Book>\n"
        f"\t\t\t<ArticleTitle>{_sentence(rng, template.words, rng.randint(3, 9))}</ArticleTitle>\n"
        f"\t\t\t<Language>eng</Language>\n{_authors(rng, template)}"
        f'\t\t\t<PublicationType UI="D016454">Review</PublicationType>\n{_abstract(rng, template)}'
        f"\t\t</BookDocument>\n\t\t<PubmedBookData>\n\t\t\t<PublicationStatus>ppublish</PublicationStatus>\n"
        f'\t\t\t<ArticleIdList>\n\t\t\t\t<ArticleId IdType="pubmed">{pmid}</ArticleId>\n\t\t\t</ArticleIdList>\n'
        f"\t\t</PubmedBookData>\n\t</PubmedBookArticle>\n"
    )
    return record.encode("utf-8")


def delete_citation(pmids: Iterable[int]) -> bytes:
    inner = "".join(f'\t\t<PMID Version="1">{pmid}</PMID>\n' for pmid in pmids)
    return f"\t<DeleteCitation>\n{inner}\t</DeleteCitation>\n".encode()


def write_file(path: Path, records: Iterable[bytes], *, level: int = 6) -> int:
    """A PubMed file of ``records`` (and deletion lists) as they come, gzipped when ``path`` ends
    in ``.gz``, streamed to disk; the bytes of XML written."""
    size = 0
    with gzip.open(path, "wb", compresslevel=level) if path.suffix == ".gz" else path.open("wb") as out:
        for part in framed(records):
            out.write(part)
            size += len(part)
    return size


def framed(records: Iterable[bytes]) -> Iterator[bytes]:
    """A whole file's parts: the XML declaration and DOCTYPE, the root's start, ``records``, its end."""
    yield HEADER
    yield from records
    yield FOOTER


def baseline(count: int, *, seed: int = 1, first_pmid: int = 30_000_001) -> Iterator[bytes]:
    rng = random.Random(seed)
    template = Template()
    for index in range(count):
        yield make_record(first_pmid + index, rng, template)


def update(count: int, *, seed: int = 2, first_pmid: int = 30_000_001) -> Iterator[bytes]:
    """An update file's records: each fifth revises a baseline record with a higher version, each
    fifth repeats one at the same version, the others are new; then a deletion list."""
    rng = random.Random(seed)
    template = Template()
    for index in range(count):
        if index % 5 == 0:
            yield make_record(first_pmid + index, rng, template, version=2)
        elif index % 5 == 1:
            yield make_record(first_pmid + index, rng, template)
        else:
            yield make_record(first_pmid + 10_000_000 + index, rng, template)
    yield delete_citation(first_pmid + index for index in range(3, count, 10))


def sized(gigabytes: float, *, seed: int = 3) -> Iterator[bytes]:
    """Baseline records until about ``gigabytes`` GB of XML have been made."""
    rng = random.Random(seed)
    template = Template()
    made, pmid = 0, 1
    while made < gigabytes * 1e9:
        record = make_record(pmid, rng, template)
        made += len(record)
        pmid += 1
        yield record


# --------------------------------------------------------------------------- the worker


def _maxrss_kib() -> int:
    import resource

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss // 1024 if sys.platform == "darwin" else rss


def measure(path: Path) -> dict[str, Any]:
    """Every record of ``path`` through read_pubmed and parse_record; counts, CPU time, peak RSS."""
    sys.path.insert(0, str(REPO))
    from paperpyramid.errors import BadInput
    from paperpyramid.parsers.pubmed import PubmedDeletion, PubmedRecord, PubmedRefusal, parse_record, read_pubmed

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    counts = {"records": 0, "parsed": 0, "failed": 0, "deleted": 0, "refusals": 0, "sections": 0}
    rss_before = _maxrss_kib()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    with path.open("rb") as stream:
        for item in read_pubmed(stream, name=path.name):
            if isinstance(item, PubmedRecord):
                counts["records"] += 1
                try:
                    document = parse_record(item)
                except BadInput:
                    counts["failed"] += 1
                else:
                    counts["parsed"] += 1
                    counts["sections"] += len(document.sections)
            elif isinstance(item, PubmedDeletion):
                counts["deleted"] += len(item.pmids)
            elif isinstance(item, PubmedRefusal):
                counts["refusals"] += 1
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return {
        **counts,
        "cpu_s": cpu,
        "wall_s": wall,
        "records_per_cpu_s": counts["records"] / cpu,
        "rss_after_imports_kib": rss_before,
        "peak_rss_kib": _maxrss_kib(),
    }


def measure_stages(path: Path, limit: int, batch: int = 64, src: Path = REPO) -> dict[str, Any]:
    """The first ``limit`` records of ``path`` through each stage of an ingest without embedding,
    one stage after another in this process, CPU seconds each: the parse (``read_pubmed`` +
    ``parse_record``), the worker's cut (normalising the text, linking citations, cutting
    contexts) and the writer (``CorpusWriter.store_many``, ``batch`` documents a transaction, into a
    fresh file). The workers do the first two and the one writer the third, so the writer keeps up
    with as many workers as its rate divided by theirs. ``src``: the folder whose ``paperpyramid``
    package is timed (``--baseline-src``: another copy of it)."""
    sys.path.insert(0, str(src))
    import paperpyramid
    from paperpyramid.db.writer import ArticleInput, CorpusWriter
    from paperpyramid.ingestion.parsing import Parsed, _with_contexts
    from paperpyramid.parsers.pubmed import PubmedRecord, parse_record, read_pubmed

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    cpu = time.process_time()
    with path.open("rb") as stream:
        found = (item for item in read_pubmed(stream, name=path.name) if isinstance(item, PubmedRecord))
        records = list(itertools.islice(found, limit))
        documents = [parse_record(record) for record in records]
    parse_s, cpu = time.process_time() - cpu, time.process_time()
    cut = [
        _with_contexts(Parsed(document, None, 0.0, f"{record.pmid}.{record.version}"))
        for record, document in zip(records, documents, strict=True)
    ]
    cut_s, cpu = time.process_time() - cpu, time.process_time()
    with tempfile.TemporaryDirectory(prefix="pubmed_stages.") as folder, CorpusWriter(Path(folder) / "corpus.sqlite") as writer:
        inputs = [
            ArticleInput(p.document, f"{path.name}#{p.sha256}", str(p.sha256), contexts=p.contexts, normalised=True)
            for p in cut
            if p.document
        ]
        cpu = time.process_time()
        for start in range(0, len(inputs), batch):
            writer.store_many(inputs[start : start + batch])
        store_s = time.process_time() - cpu
        contexts = writer.db.conn.execute("SELECT count(*) FROM contexts").fetchone()[0]
    count = len(records)
    return {"records": count, "contexts": contexts, "parse_s": parse_s, "cut_s": cut_s, "store_s": store_s,
            "worker_records_per_cpu_s": count / (parse_s + cut_s), "writer_records_per_cpu_s": count / store_s,
            "package": str(Path(paperpyramid.__file__).parent)}  # fmt: skip


def run_worker(path: Path, stages: int = 0, src: str | None = None) -> dict[str, Any]:
    command = [sys.executable, str(HERE), "--measure", str(path)] + (["--stages", str(stages)] if stages else [])
    command += ["--src", src] if src else []
    out = subprocess.run(command, capture_output=True, text=True, check=True, cwd=str(REPO))
    result: dict[str, Any] = json.loads(out.stdout)
    return result


# --------------------------------------------------------------------------- the driver


def _write(path: Path, records: Iterable[bytes], level: int) -> dict[str, Any]:
    started = time.perf_counter()
    size = write_file(path, records, level=level)
    return {"file": str(path), "xml_bytes": size, "gz_bytes": path.stat().st_size, "write_s": time.perf_counter() - started}


def run(args: argparse.Namespace) -> dict[str, Any]:
    started = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="pubmed_speed."))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        results = _measure_files(folder, args)
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    meta = {"machine": f"{platform.node()} {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}", "argv": sys.argv,
            "started": started, "loadavg_at_end": os.getloadavg()}  # fmt: skip
    return {"meta": meta, "files": results}


def _measure_files(folder: Path, args: argparse.Namespace) -> dict[str, Any]:
    baseline_file = _write(folder / "pubmed26n0001.xml.gz", baseline(args.records), 6)
    update_file = _write(folder / "pubmed26n1400.xml.gz", update(max(args.records // 10, 50)), 6)
    _log(f"wrote {baseline_file['xml_bytes'] / 1e6:.0f} MB of XML ({args.records:,} records) in {baseline_file['write_s']:.0f} s")
    results: dict[str, Any] = {
        "baseline": {**baseline_file, "runs": [run_worker(Path(baseline_file["file"])) for _ in range(args.repeat)]},
        "update": {**update_file, "runs": [run_worker(Path(update_file["file"]))]},
    }
    _log(f"baseline read {args.repeat} times, update once")
    if args.stages:
        results["stages"], baseline_runs = [], []
        for turn in range(args.repeat):  # with --baseline-src the two alternate, which goes first alternating too
            order = ("today", "baseline") if turn % 2 == 0 else ("baseline", "today")
            for name in order if args.baseline_src else ("today",):
                runs = results["stages"] if name == "today" else baseline_runs
                runs.append(run_worker(Path(baseline_file["file"]), args.stages, args.baseline_src if name == "baseline" else None))
        if baseline_runs:
            results["stages_baseline"] = baseline_runs
    if args.size_gb:
        # gzip level 1: the reader's cost hardly depends on the level, writing 1 GB at level 6 would take minutes
        large = _write(folder / "pubmed26n9999.xml.gz", sized(args.size_gb), 1)
        _log(f"wrote {large['xml_bytes'] / 1e9:.2f} GB of XML in {large['write_s']:.0f} s")
        results["large"] = {**large, "runs": [run_worker(Path(large["file"]))]}
    return results


def _log(message: str) -> None:
    print(f"  {message}", file=sys.stderr, flush=True)


def print_report(report: dict[str, Any]) -> None:
    print(f"\n{report['meta']['machine']}; CPU time (time.process_time), one core; peak RSS includes the interpreter\n")
    print(
        "| file | records | XML MB | gz MB | runs | records/s per core (median) | MB/s of XML | deleted PMIDs | refused | failed | peak RSS MB |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, entry in report["files"].items():
        if name.startswith("stages"):
            continue
        runs = entry["runs"]
        rate = statistics.median(run["records_per_cpu_s"] for run in runs)
        cpu = statistics.median(run["cpu_s"] for run in runs)
        first = runs[0]
        print(f"| {name} | {first['records']:,} | {entry['xml_bytes'] / 1e6:,.0f} | {entry['gz_bytes'] / 1e6:,.0f} | {len(runs)} | {rate:,.0f} | "
              f"{entry['xml_bytes'] / 1e6 / cpu:,.1f} | {first['deleted']:,} | {first['refusals']} | {first['failed']} | "
              f"{max(run['peak_rss_kib'] for run in runs) / 1024:.0f} |")  # fmt: skip

    if report["files"].get("stages"):
        print_stages(report["files"])


def print_stages(files: dict[str, Any]) -> None:
    """The stages' table: this package, and the ``--baseline-src`` copy's runs of the same run with the ratio."""
    print("\nAn ingest's stages without embedding (the baseline file's first records, CPU s on one core, median of the runs):\n")
    print("| package | records | contexts | parse s | cut s | store s | a worker, records/s | the writer, records/s | "
          "workers the writer keeps up with |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    keys = ("parse_s", "cut_s", "store_s", "worker_records_per_cpu_s", "writer_records_per_cpu_s")
    medians = {}
    for name in ("stages", "stages_baseline"):
        stages = files.get(name)
        if not stages:
            continue
        med = medians[name] = {key: statistics.median(run[key] for run in stages) for key in keys}
        print(f"| {stages[0]['package']} | {stages[0]['records']:,} | {stages[0]['contexts']:,} | {med['parse_s']:.1f} | {med['cut_s']:.1f} | "
              f"{med['store_s']:.1f} | {med['worker_records_per_cpu_s']:,.0f} | {med['writer_records_per_cpu_s']:,.0f} | "
              f"{med['writer_records_per_cpu_s'] / med['worker_records_per_cpu_s']:.1f} |")  # fmt: skip
    if len(medians) == 2:
        ratios = [today["writer_records_per_cpu_s"] / base["writer_records_per_cpu_s"]
                  for today, base in zip(files["stages"], files["stages_baseline"], strict=True)]  # fmt: skip
        ratio = medians["stages"]["writer_records_per_cpu_s"] / medians["stages_baseline"]["writer_records_per_cpu_s"]
        print(
            f"\nthe writer, this package / the baseline: {ratio:.2f}x (median of the runs; run by run {', '.join(f'{r:.2f}' for r in ratios)})"
        )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="PubMed file reading speed (records/s per core) and peak memory.")
    parser.add_argument("--records", type=int, default=30_000, help="records in the baseline file (default 30,000, a real file's size)")
    parser.add_argument("--repeat", type=int, default=3, help="reads of the baseline file, each in a fresh process (default 3)")
    parser.add_argument("--size-gb", type=float, default=0.0, help="also a file of about this many GB of XML (gzipped on disk), read once")
    parser.add_argument("--keep", metavar="DIR", help="write the files here and keep them (default: a temporary folder)")
    parser.add_argument("--json", metavar="OUT", help="write every run's figures as JSON")
    parser.add_argument("--stages", type=int, default=0, metavar="N",
                        help="also time an ingest's stages (parse, cut, store) on the baseline file's first N records")  # fmt: skip
    parser.add_argument("--baseline-src", metavar="DIR",
                        help="with --stages: also time the stages with the paperpyramid package in DIR (another copy of it), alternating")  # fmt: skip
    parser.add_argument("--measure", metavar="FILE", help=argparse.SUPPRESS)
    parser.add_argument("--src", help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.measure:
        src = Path(args.src).resolve() if args.src else REPO
        print(json.dumps(measure_stages(Path(args.measure), args.stages, src=src) if args.stages else measure(Path(args.measure))))
        return 0
    report = run(args)
    print_report(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
        print(f"\nraw figures: {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
