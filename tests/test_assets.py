"""Kokoro's model is reassembled from four packages, verified, and rebuilt when damaged."""

import sys

import pytest

from emovox.backends import assets
from emovox.errors import ModelAssetError

pytestmark = [pytest.mark.models, pytest.mark.paired]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    directory = tmp_path_factory.mktemp("cache")
    return directory, assets.assemble_kokoro(directory)


def test_assembles_and_verifies_the_model(built):
    directory, path = built
    assert path.parent == directory and path.stat().st_size > 80_000_000
    assert assets.sha256_of(path) == assets.kokoro_expected_sha256()
    assert not list(directory.glob("*.partial"))


def test_second_call_reuses_the_verified_file(built):
    directory, path = built
    before = path.stat().st_mtime_ns
    assert assets.assemble_kokoro(directory) == path
    assert path.stat().st_mtime_ns == before


def test_corrupt_or_truncated_cache_is_rebuilt(tmp_path):
    path = assets.assemble_kokoro(tmp_path)
    with open(path, "r+b") as f:
        f.truncate(path.stat().st_size // 2)
    assert assets.assemble_kokoro(tmp_path) == path
    assert assets.sha256_of(path) == assets.kokoro_expected_sha256()


def test_damaged_part_packages_give_an_error_that_says_how_to_fix_it(tmp_path, monkeypatch):
    packages = []
    for i in range(1, 5):
        name = f"damaged_kokoro_part_{i}"
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text("")
        (tmp_path / name / "part.bin").write_bytes(b"not the model" * i)
        packages.append(name)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(assets, "KOKORO_PART_PACKAGES", tuple(packages))
    cache = tmp_path / "cache"
    with pytest.raises(ModelAssetError, match="damaged.*pip install --force-reinstall"):
        assets.assemble_kokoro(cache)
    assert not list(cache.iterdir())  # no half-written file left behind
    for name in packages:
        sys.modules.pop(name, None)


def test_missing_package_names_what_to_install():
    with pytest.raises(ModelAssetError, match="pip install no-such-voice-package"):
        assets.package_file("no_such_voice_package", "model.onnx")
