"""Fixtures: the tetris-tt binary, a local Ray instance, and a scratch directory with a small
match (beam 4, two previews, 30-piece games, so a test build plays a game in a fraction of a
second)."""

import os
import pathlib

import pytest
import ray

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="package")
def binary() -> str:
    """The tetris-tt to test: $TETRIS_TT_BIN, or the workspace's test build."""
    path = os.environ.get("TETRIS_TT_BIN") or str(ROOT / "target" / "debug" / "tetris-tt")
    if not os.access(path, os.X_OK):
        pytest.fail(f"no tetris-tt at {path}: build it (cargo build -p cli) or set TETRIS_TT_BIN")
    return path


@pytest.fixture(scope="module")
def local_ray():
    """One Ray instance for a module's in-process tests: four logical CPUs, so up to four tasks
    run at once even on two cores. It ends with the module, before a module that starts a
    cluster of its own."""
    ray.init(address="local", num_cpus=4, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture
def scratch(tmp_path: pathlib.Path) -> pathlib.Path:
    (tmp_path / "a.json").write_text('{"beam_width": 4, "previews": 2}')
    (tmp_path / "b.json").write_text('{"beam_width": 2, "previews": 1, "holes": -40}')
    (tmp_path / "weak.json").write_text('{"beam_width": 1, "previews": 0, "holes": 100}')
    (tmp_path / "rules.json").write_text('{"max_pieces": 30}')
    (tmp_path / "long.json").write_text('{"max_pieces": 200}')
    return tmp_path
