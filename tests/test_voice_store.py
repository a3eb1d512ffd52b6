"""The voice store on a real SQLite file: round trips, names, export/import, killed writers."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from emovox.voices.store import StoredVoice, VoiceStore, VoiceStoreError


def _voice(name: str, source: str = "abc") -> StoredVoice:
    return StoredVoice(name=name, backend="kokoro", based_on="jm_kumo", source_sha256=source,
                       settings="test", similarity=0.8, created=time.time(), meta={"quality": "fast"})


def test_save_list_get_delete(tmp_path):
    store = VoiceStore(tmp_path)
    pack = np.random.default_rng(0).standard_normal((510, 256)).astype(np.float32)
    store.save(_voice("maria"), pack)
    assert [v.name for v in VoiceStore(tmp_path).list()] == ["maria"]  # persisted, reopened
    assert np.array_equal(store.tensor("maria"), pack)
    assert store.find_clone("abc", "test").name == "maria" and store.find_clone("abc", "other") is None
    with pytest.raises(VoiceStoreError, match="already exists"):
        store.save(_voice("maria"), pack)
    store.save(_voice("maria"), pack * 2, force=True)
    assert np.array_equal(store.tensor("maria"), pack * 2)
    store.delete("maria")
    assert store.list() == [] and store.get("maria") is None
    with pytest.raises(VoiceStoreError, match="no stored voice"):
        store.delete("maria")


@pytest.mark.parametrize("name", ["../../etc/passwd", "a/b", "", ".hidden", "x" * 49, "名字", "a b", "..", "a\x00"])
def test_unsafe_names_are_rejected(tmp_path, name):
    store = VoiceStore(tmp_path)
    with pytest.raises(VoiceStoreError, match="invalid voice name"):
        store.save(_voice(name), np.zeros((2, 256), np.float32))
    assert store.list() == [] and not list((tmp_path / "tensors").iterdir())


def test_export_import_round_trip_and_bad_files(tmp_path):
    store = VoiceStore(tmp_path / "a")
    pack = np.random.default_rng(1).standard_normal((510, 256)).astype(np.float32)
    store.save(_voice("maria"), pack)
    store.export("maria", tmp_path / "maria.emovox")
    other = VoiceStore(tmp_path / "b")
    imported = other.import_file(tmp_path / "maria.emovox")
    assert imported.name == "maria" and np.array_equal(other.tensor("maria"), pack)
    (tmp_path / "junk.emovox").write_bytes(b"not a voice")
    with pytest.raises(VoiceStoreError, match="not an exported emovox voice"):
        other.import_file(tmp_path / "junk.emovox")
    with pytest.raises(VoiceStoreError, match="already exists"):
        other.import_file(tmp_path / "maria.emovox")
    assert [v.name for v in other.list()] == ["maria"]


WRITER = """
import sys, time, numpy as np
from emovox.voices.store import StoredVoice, VoiceStore
store = VoiceStore(sys.argv[1])
rng = np.random.default_rng()
for i in range(100000):
    pack = rng.standard_normal((510, 256)).astype(np.float32)
    pack[0, 0] = i
    store.save(StoredVoice(f"v{i % 7}", "kokoro", "jm_kumo", str(i), "s", 0.5, time.time(), {"i": i}), pack, force=True)
    print(i, flush=True)
"""


def test_a_killed_writer_never_corrupts_the_store(tmp_path):
    for delay in (0.6, 0.9, 1.3):
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path)], stdout=subprocess.PIPE, text=True)
        writer.stdout.readline()  # at least one voice written
        time.sleep(delay)
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        store = VoiceStore(tmp_path)
        voices = store.list()
        assert voices
        for voice in voices:  # every indexed voice is complete and matches its row
            tensor = store.tensor(voice.name)
            assert tensor.shape == (510, 256) and tensor[0, 0] == voice.meta["i"]
