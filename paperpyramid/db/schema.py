"""The corpus schema and its migrations.

The schema is a list of migration functions; ``PRAGMA user_version`` records how many have
run, so :func:`migrate` applies only the missing ones, each in its own transaction together
with the version bump. To change the schema, append a function to :data:`MIGRATIONS`;
never edit one that has shipped.

Reading order lives in the junction tables: ``article_sections.position`` orders an
article's sections and ``sections_contexts.position`` a section's contexts, each its table's key
(the link tables are WITHOUT ROWID tables, stored in their keys' order). ``contexts_fts``
is an FTS5 index (porter stemming) over ``contexts.text`` and ``contexts.section_title``,
kept in step by triggers.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

import sqlite_utils

from paperpyramid.dates import iso_date, unread_date_warning
from paperpyramid.errors import ConfigurationError

Migration = Callable[[sqlite_utils.Database], None]

_V1_TABLES = """
CREATE TABLE articles (
    id TEXT PRIMARY KEY,
    title TEXT,
    authors TEXT NOT NULL DEFAULT '[]',          -- JSON [{"name", "affiliation", "email"}]
    date_published TEXT,
    journal TEXT,
    doi TEXT COLLATE NOCASE,                     -- DOIs are case-insensitive
    abstract TEXT,
    num_tokens INTEGER NOT NULL DEFAULT 0,       -- sum of its contexts' tokens
    pages INTEGER,
    source_uri TEXT,
    sha256 TEXT NOT NULL UNIQUE,
    parser TEXT,
    provenance TEXT NOT NULL DEFAULT '{}',       -- JSON {"sections": "embedded 0.1.0", ...}
    warnings TEXT NOT NULL DEFAULT '[]',         -- JSON list of strings
    created_at TEXT NOT NULL
);
CREATE INDEX articles_doi ON articles (doi);

CREATE TABLE sections (
    id TEXT PRIMARY KEY,
    section_number TEXT,                         -- "2.1", "II", "A"; 'ref' for the references
    section_title TEXT,
    level INTEGER NOT NULL DEFAULT 1,
    parent_id TEXT REFERENCES sections (id),
    num_tokens INTEGER NOT NULL DEFAULT 0,       -- its own contexts, not its subsections'
    page_start INTEGER,
    page_end INTEGER
);
CREATE INDEX sections_parent ON sections (parent_id);

CREATE TABLE contexts (
    id TEXT PRIMARY KEY,
    text TEXT NOT NULL,
    section_title TEXT,
    section_number TEXT,
    num_tokens INTEGER NOT NULL,
    page_number INTEGER,
    stop_reason TEXT NOT NULL CHECK (stop_reason IN ('Section', 'Token limit')),
    kind TEXT NOT NULL DEFAULT 'paragraph'
);

CREATE TABLE article_sections (
    article_id TEXT NOT NULL REFERENCES articles (id),
    section_id TEXT NOT NULL REFERENCES sections (id),
    position INTEGER NOT NULL,
    PRIMARY KEY (article_id, section_id)
);
CREATE INDEX article_sections_order ON article_sections (article_id, position);
CREATE UNIQUE INDEX article_sections_section ON article_sections (section_id);

CREATE TABLE sections_contexts (
    section_id TEXT NOT NULL REFERENCES sections (id),
    context_id TEXT NOT NULL REFERENCES contexts (id),
    position INTEGER NOT NULL,
    PRIMARY KEY (section_id, context_id)
);
CREATE INDEX sections_contexts_order ON sections_contexts (section_id, position);
CREATE UNIQUE INDEX sections_contexts_context ON sections_contexts (context_id);

CREATE TABLE bib_entries (
    id TEXT PRIMARY KEY,
    article_id TEXT NOT NULL REFERENCES articles (id),
    position INTEGER NOT NULL,
    raw TEXT NOT NULL,
    title TEXT,
    authors TEXT NOT NULL DEFAULT '[]',          -- JSON list of names
    year INTEGER,
    doi TEXT COLLATE NOCASE,
    venue TEXT
);
CREATE INDEX bib_entries_article ON bib_entries (article_id, position);
CREATE INDEX bib_entries_doi ON bib_entries (doi);

CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    article_id TEXT NOT NULL REFERENCES articles (id),
    section_id TEXT REFERENCES sections (id),
    label TEXT,
    caption TEXT,
    cells TEXT NOT NULL DEFAULT '[]',            -- JSON rows of cells; the first row is the header
    markdown TEXT,
    page INTEGER,
    bbox TEXT,                                   -- JSON [x0, top, x1, bottom] in PDF points
    provenance TEXT
);
CREATE INDEX tables_article ON tables (article_id);

CREATE TABLE formulas (
    id TEXT PRIMARY KEY,
    article_id TEXT NOT NULL REFERENCES articles (id),
    section_id TEXT REFERENCES sections (id),
    label TEXT,
    text TEXT,
    latex TEXT,
    page INTEGER,
    bbox TEXT,
    provenance TEXT
);
CREATE INDEX formulas_article ON formulas (article_id);

CREATE TABLE figures (
    id TEXT PRIMARY KEY,
    article_id TEXT NOT NULL REFERENCES articles (id),
    section_id TEXT REFERENCES sections (id),
    label TEXT,
    caption TEXT,
    page INTEGER,
    bbox TEXT,
    provenance TEXT
);
CREATE INDEX figures_article ON figures (article_id);

CREATE TABLE ingest_log (
    source_uri TEXT PRIMARY KEY,
    sha256 TEXT,
    status TEXT NOT NULL CHECK (status IN ('done', 'failed', 'skipped')),
    error TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    article_id TEXT,
    pages INTEGER,
    seconds REAL,
    updated_at TEXT NOT NULL
);
CREATE INDEX ingest_log_sha256 ON ingest_log (sha256);
"""


def _v1_initial(db: sqlite_utils.Database) -> None:
    db.executescript(_V1_TABLES)
    db.table("contexts").enable_fts(["text", "section_title"], create_triggers=True, tokenize="porter")


def _v2_ingest_etag(db: sqlite_utils.Database) -> None:
    # objects from a bucket are skipped on re-runs by their ETag, before any download
    db.execute("ALTER TABLE ingest_log ADD COLUMN etag TEXT")


def _v3_embedders(db: sqlite_utils.Database) -> None:
    # one row per embedding model; its vectors live in its own vec0 table (see db/vectors.py),
    # created when the model first embeds, since the dimension is the model's
    db.executescript(
        """
        CREATE TABLE embedders (
            name TEXT PRIMARY KEY,                   -- the model and how it is used, e.g. all-MiniLM-L6-v2
            dimension INTEGER NOT NULL,
            window INTEGER,                          -- tokens the model reads
            vec_table TEXT NOT NULL UNIQUE,          -- the vec0 table holding its context vectors
            created_at TEXT NOT NULL
        );
        """
    )


_V4_PYRAMID = """
CREATE TABLE distillations (
    article_id TEXT PRIMARY KEY REFERENCES articles (id),
    status TEXT NOT NULL CHECK (status IN ('done', 'failed')),
    error TEXT,                                  -- why it failed, one line
    model TEXT NOT NULL,                         -- local:..., openai:..., or import:FILE for a loaded distillation
    prompt_version TEXT NOT NULL,
    calls INTEGER NOT NULL DEFAULT 0,
    cached_calls INTEGER NOT NULL DEFAULT 0,     -- answered from the response cache: no tokens spent
    prompt_tokens INTEGER NOT NULL DEFAULT 0,    -- spent this time (cached calls excluded)
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    seconds REAL,
    warnings TEXT NOT NULL DEFAULT '[]',         -- JSON list: model output that was dropped or corrected
    recollected INTEGER NOT NULL DEFAULT 0,      -- 1 once its recollections step has run
    updated_at TEXT NOT NULL
);

CREATE TABLE llm_calls (
    id INTEGER PRIMARY KEY,
    article_id TEXT REFERENCES articles (id),
    step TEXT NOT NULL,                          -- insights:pages 3-4, concepts, abstract, recollections
    model TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    cached INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 1,
    seconds REAL,
    created_at TEXT NOT NULL
);
CREATE INDEX llm_calls_article ON llm_calls (article_id);

CREATE TABLE insights (
    id TEXT PRIMARY KEY,
    article_id TEXT NOT NULL REFERENCES articles (id),
    position INTEGER NOT NULL,                   -- order in the paper's insight list, from 1
    text TEXT NOT NULL,                          -- one simple subject-verb-object sentence
    pages TEXT NOT NULL DEFAULT '[]',            -- JSON list of page numbers
    page_number INTEGER,                         -- the first of them
    section TEXT,
    num_tokens INTEGER NOT NULL,
    model TEXT NOT NULL,
    prompt_version TEXT NOT NULL
);
CREATE INDEX insights_article ON insights (article_id, position);

CREATE TABLE insights_contexts (
    insight_id TEXT NOT NULL REFERENCES insights (id),
    context_id TEXT NOT NULL REFERENCES contexts (id),
    score REAL,                                  -- how well the insight's words match the context's
    PRIMARY KEY (insight_id, context_id)
);
CREATE INDEX insights_contexts_context ON insights_contexts (context_id);

CREATE TABLE concepts (
    id TEXT PRIMARY KEY,
    article_id TEXT NOT NULL REFERENCES articles (id),
    position INTEGER NOT NULL,
    text TEXT NOT NULL,
    num_tokens INTEGER NOT NULL,
    model TEXT NOT NULL,
    prompt_version TEXT NOT NULL
);
CREATE INDEX concepts_article ON concepts (article_id, position);

CREATE TABLE concepts_insights (
    concept_id TEXT NOT NULL REFERENCES concepts (id),
    insight_id TEXT NOT NULL REFERENCES insights (id),
    PRIMARY KEY (concept_id, insight_id)
);
CREATE INDEX concepts_insights_insight ON concepts_insights (insight_id);

CREATE TABLE abstracts (
    id TEXT PRIMARY KEY,
    article_id TEXT NOT NULL UNIQUE REFERENCES articles (id),
    text TEXT NOT NULL,
    num_tokens INTEGER NOT NULL,
    model TEXT NOT NULL,
    prompt_version TEXT NOT NULL
);

CREATE TABLE recollections (
    id TEXT PRIMARY KEY,
    text TEXT NOT NULL,                          -- a statement that connects papers
    num_tokens INTEGER NOT NULL,
    version INTEGER NOT NULL DEFAULT 1,
    model TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE recollections_sources (
    recollection_id TEXT NOT NULL REFERENCES recollections (id),
    article_id TEXT NOT NULL REFERENCES articles (id),
    insight_id TEXT REFERENCES insights (id),    -- NULL: the article as a whole (its abstract)
    added_at TEXT NOT NULL
);
CREATE UNIQUE INDEX recollections_sources_unique ON recollections_sources (recollection_id, article_id, ifnull(insight_id, ''));
CREATE INDEX recollections_sources_article ON recollections_sources (article_id);

CREATE TABLE recollection_history (
    recollection_id TEXT NOT NULL REFERENCES recollections (id),
    version INTEGER NOT NULL,
    text TEXT NOT NULL,
    change TEXT NOT NULL CHECK (change IN ('created', 'updated')),
    article_id TEXT REFERENCES articles (id),    -- the article whose arrival caused the change
    model TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    changed_at TEXT NOT NULL,
    PRIMARY KEY (recollection_id, version)
);
"""

#: the distilled levels, each a table with ``id``, ``text`` and ``num_tokens`` and its own FTS5 index
PYRAMID_LEVELS: tuple[str, ...] = ("insights", "concepts", "abstracts", "recollections")


def _v4_pyramid(db: sqlite_utils.Database) -> None:
    # the knowledge pyramid (distill/): insights, concepts, one abstract per article and
    # recollections across articles, with what produced them; vectors per level live in
    # vec0 tables named after the contexts' (vec_insights_N beside vec_contexts_N)
    db.executescript(_V4_PYRAMID)
    db.table("insights").enable_fts(["text", "section"], create_triggers=True, tokenize="porter")
    for level in ("concepts", "abstracts", "recollections"):
        db.table(level).enable_fts(["text"], create_triggers=True, tokenize="porter")


def _v5_coverage(db: sqlite_utils.Database) -> None:
    # the share of the PDF text layer's words that reached the article: text never vanishes silently
    db.execute("ALTER TABLE articles ADD COLUMN coverage REAL")


def _v6_ocr_pages(db: sqlite_utils.Database) -> None:
    # the pages read by OCR instead of the PDF's text layer (JSON list of page numbers)
    db.execute("ALTER TABLE articles ADD COLUMN ocr_pages TEXT")


_V7_CITATIONS = """
ALTER TABLE articles ADD COLUMN arxiv_id TEXT;       -- the paper's own arXiv id, without a version
CREATE INDEX articles_arxiv ON articles (arxiv_id);
ALTER TABLE articles ADD COLUMN title_key TEXT;      -- the title folded for matching (db/references.py)
CREATE INDEX articles_title_key ON articles (title_key);
ALTER TABLE bib_entries ADD COLUMN key TEXT;         -- what in-text citations name it by: a cite key, an xml id, "12"
ALTER TABLE bib_entries ADD COLUMN arxiv_id TEXT;
ALTER TABLE bib_entries ADD COLUMN title_key TEXT;   -- the title folded for matching (db/references.py)
ALTER TABLE bib_entries ADD COLUMN cited_article_id TEXT REFERENCES articles (id);  -- the corpus's article it names
CREATE INDEX bib_entries_arxiv ON bib_entries (arxiv_id);
CREATE INDEX bib_entries_title_key ON bib_entries (title_key);
CREATE INDEX bib_entries_cited ON bib_entries (cited_article_id);
CREATE TABLE citations (
    context_id TEXT NOT NULL REFERENCES contexts (id),
    bib_entry_id TEXT NOT NULL REFERENCES bib_entries (id),
    char_start INTEGER NOT NULL,                 -- the marker is contexts.text[char_start:char_end]
    char_end INTEGER NOT NULL,
    PRIMARY KEY (context_id, bib_entry_id, char_start)
);
CREATE INDEX citations_entry ON citations (bib_entry_id);
"""


def _v7_citations(db: sqlite_utils.Database) -> None:
    # the citation graph: which passage cites which reference entry, and which entries name
    # an article of the corpus (resolved as articles arrive, in either order). Articles stored
    # before get their keys here and are resolved once, oldest first; their in-text citations
    # would need a new parse (no citations rows for them).
    from paperpyramid.db import references

    db.executescript(_V7_CITATIONS)
    conn = db.conn
    conn.executemany(
        "UPDATE articles SET title_key = ? WHERE id = ?",
        [(references.title_key(title), article_id) for article_id, title in conn.execute("SELECT id, title FROM articles").fetchall()],
    )
    conn.executemany(
        "UPDATE bib_entries SET title_key = ?, arxiv_id = ? WHERE id = ?",
        [(references.title_key(title), references.arxiv_id(raw), entry_id) for entry_id, title, raw in conn.execute("SELECT id, title, raw FROM bib_entries")],
    )  # fmt: skip
    for (article_id,) in conn.execute("SELECT id FROM articles ORDER BY created_at, rowid").fetchall():
        references.resolve_article(conn, article_id)


def _v8_iso_dates(db: sqlite_utils.Database) -> None:
    # publication dates as ISO 8601 (paperpyramid/dates.py), as the writer now stores them: a
    # date that is not one becomes NULL and the article's warnings keep its text. Articles whose
    # year was unreadable before are resolved again, oldest first: their year may now confirm a
    # reference entry that names them by title
    from paperpyramid.db import references

    conn = db.conn
    changed: list[str] = []
    for article_id, given, warnings in conn.execute(
        "SELECT id, date_published, warnings FROM articles WHERE date_published IS NOT NULL ORDER BY created_at, rowid"
    ).fetchall():
        date = iso_date(given)
        if date == given:
            continue
        if date is None and given.strip():
            kept = json.loads(warnings or "[]")
            warnings = json.dumps([*(kept if isinstance(kept, list) else []), unread_date_warning(given)], ensure_ascii=False)
        conn.execute("UPDATE articles SET date_published = ?, warnings = ? WHERE id = ?", [date, warnings, article_id])
        if date is not None and not given[:4].isdigit():
            changed.append(article_id)
    for article_id in changed:
        references.resolve_article(conn, article_id)


_V9_PUBMED = """
ALTER TABLE articles ADD COLUMN pmid TEXT;                                 -- PubMed's id, digits only
CREATE INDEX articles_pmid ON articles (pmid);
ALTER TABLE articles ADD COLUMN pmcid TEXT COLLATE NOCASE;                 -- PubMed Central's id: PMC1234567
CREATE INDEX articles_pmcid ON articles (pmcid);
ALTER TABLE articles ADD COLUMN licence TEXT;                              -- cc-by, cc0, ... (licences.py), the licence's words, or NULL
ALTER TABLE articles ADD COLUMN language TEXT;                             -- as the source gives it: eng, en
ALTER TABLE articles ADD COLUMN publication_types TEXT NOT NULL DEFAULT '[]';  -- JSON list: Journal Article, Review, ...
ALTER TABLE articles ADD COLUMN keywords TEXT NOT NULL DEFAULT '[]';       -- JSON list of strings
CREATE TABLE mesh_terms (
    article_id TEXT NOT NULL REFERENCES articles (id),
    position INTEGER NOT NULL,                   -- order in the record's MeSH list, from 0
    term TEXT NOT NULL COLLATE NOCASE,           -- the descriptor's name: Humans, Neoplasms
    major INTEGER NOT NULL DEFAULT 0,            -- 1: a major topic of the article
    ui TEXT,                                     -- the descriptor's unique id: D006801
    qualifiers TEXT NOT NULL DEFAULT '[]',       -- JSON list of the qualifiers' names
    PRIMARY KEY (article_id, position)
);
CREATE INDEX mesh_terms_term ON mesh_terms (term);
CREATE TABLE merged_sources (
    sha256 TEXT PRIMARY KEY,                     -- an input the article took in or replaced
    article_id TEXT NOT NULL REFERENCES articles (id),
    source_uri TEXT,
    merged_at TEXT NOT NULL
);
CREATE INDEX merged_sources_article ON merged_sources (article_id);
"""


def _v9_pubmed(db: sqlite_utils.Database) -> None:
    # PubMed's identifiers and indexing (MeSH headings, publication types, keywords), the licence
    # and language; and the inputs an article took in besides the one it holds (an older version
    # of its PubMed record, a record joined to its full text), so that a re-run skips them
    db.executescript(_V9_PUBMED)


#: The link tables rebuilt by :func:`_v10_links_without_rowid`: each table's declaration (its key's
#: columns first: SQLite 3.40's integrity check misreads a WITHOUT ROWID row whose key columns are
#: declared around another), its indexes, and its columns, its key's first
_V10_LINKS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "article_sections": (
        """CREATE TABLE article_sections (
    article_id TEXT NOT NULL REFERENCES articles (id),
    position INTEGER NOT NULL,
    section_id TEXT NOT NULL REFERENCES sections (id),
    PRIMARY KEY (article_id, position)
) WITHOUT ROWID""",
        ("CREATE UNIQUE INDEX article_sections_section ON article_sections (section_id)",),
        ("article_id", "position", "section_id"),
    ),
    "sections_contexts": (
        """CREATE TABLE sections_contexts (
    section_id TEXT NOT NULL REFERENCES sections (id),
    position INTEGER NOT NULL,
    context_id TEXT NOT NULL REFERENCES contexts (id),
    PRIMARY KEY (section_id, position)
) WITHOUT ROWID""",
        ("CREATE UNIQUE INDEX sections_contexts_context ON sections_contexts (context_id)",),
        ("section_id", "position", "context_id"),
    ),
    "citations": (
        """CREATE TABLE citations (
    context_id TEXT NOT NULL REFERENCES contexts (id),
    bib_entry_id TEXT NOT NULL REFERENCES bib_entries (id),
    char_start INTEGER NOT NULL,                 -- the marker is contexts.text[char_start:char_end]
    char_end INTEGER NOT NULL,
    PRIMARY KEY (context_id, bib_entry_id, char_start)
) WITHOUT ROWID""",
        ("CREATE INDEX citations_entry ON citations (bib_entry_id)",),
        ("context_id", "bib_entry_id", "char_start", "char_end"),
    ),
    "insights_contexts": (
        """CREATE TABLE insights_contexts (
    insight_id TEXT NOT NULL REFERENCES insights (id),
    context_id TEXT NOT NULL REFERENCES contexts (id),
    score REAL,                                  -- how well the insight's words match the context's
    PRIMARY KEY (insight_id, context_id)
) WITHOUT ROWID""",
        ("CREATE INDEX insights_contexts_context ON insights_contexts (context_id)",),
        ("insight_id", "context_id", "score"),
    ),
    "concepts_insights": (
        """CREATE TABLE concepts_insights (
    concept_id TEXT NOT NULL REFERENCES concepts (id),
    insight_id TEXT NOT NULL REFERENCES insights (id),
    PRIMARY KEY (concept_id, insight_id)
) WITHOUT ROWID""",
        ("CREATE INDEX concepts_insights_insight ON concepts_insights (insight_id)",),
        ("concept_id", "insight_id"),
    ),
}


def _v10_links_without_rowid(db: sqlite_utils.Database) -> None:
    # the tables that link two rows hold ids and little else: WITHOUT ROWID, each row is stored
    # once, in its key's order, not in a rowid table and again in its key's index. The reading
    # order is the key of article_sections and sections_contexts (no index of its own), so one
    # place holds one row: positions are numbered again from 0 in their order, ties in the order
    # the rows were stored (the writer numbers them so: its rows keep their positions)
    conn = db.conn
    for table, (declaration, indexes, columns) in _V10_LINKS.items():
        old = f"{table}_v9"
        conn.execute(f"ALTER TABLE {table} RENAME TO {old}")
        conn.execute(declaration)
        listed = ", ".join(columns)
        if "position" in columns:
            owner = columns[0]
            rows = (f"SELECT {owner}, row_number() OVER (PARTITION BY {owner} ORDER BY position, rowid) - 1, {columns[2]} "
                    f"FROM {old} ORDER BY 1, 2")  # fmt: skip
        else:
            rows = f"SELECT {listed} FROM {old} ORDER BY {listed}"
        conn.execute(f"INSERT INTO {table} ({listed}) {rows}")
        conn.execute(f"DROP TABLE {old}")
        for index in indexes:
            conn.execute(index)


#: Every migration, oldest first. Append only.
MIGRATIONS: list[Migration] = [
    _v1_initial, _v2_ingest_etag, _v3_embedders, _v4_pyramid, _v5_coverage, _v6_ocr_pages, _v7_citations, _v8_iso_dates,
    _v9_pubmed, _v10_links_without_rowid,
]  # fmt: skip

#: The schema version this code reads and writes: the number of migrations.
SCHEMA_VERSION = len(MIGRATIONS)


def schema_version(db: sqlite_utils.Database) -> int:
    """The version a database is at (0 for an empty file)."""
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite_utils.Database, migrations: Sequence[Migration] = MIGRATIONS) -> int:
    """Apply the migrations ``db`` has not had yet and return the version it is now at.

    Each migration and its version bump commit together, so a failed or interrupted run
    leaves the database at the last complete version. Running it again is harmless.
    """
    current = schema_version(db)
    if current > len(migrations):
        raise ConfigurationError(
            f"the corpus is at schema version {current}, newer than this paperpyramid understands ({len(migrations)}); upgrade paperpyramid"
        )
    for version, migration in enumerate(migrations[current:], start=current + 1):
        with db.atomic():
            migration(db)
            db.execute(f"PRAGMA user_version = {version}")
    return schema_version(db)
