"""Offline tokenizers: official files, verified, and plain tiktoken calls that never download."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import textwrap

import pytest

from tiktoken_ext import on_the_wire as ot


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    return tmp_path


def test_install_writes_verified_official_files(cache):
    assert ot.install() == cache
    for bpe in ot.BPE_FILES:
        for name in (bpe.cache_name, f"{bpe.name}.tiktoken"):
            data = (cache / name).read_bytes()
            assert hashlib.sha256(data).hexdigest() == bpe.sha256
    # tiktoken looks files up by the sha1 of the download URL
    assert ot.BPE_FILES[0].cache_name == "fb374d419588a4632f3f557e76b4b70aebbca790"
    assert ot.BPE_FILES[1].cache_name == "9b5ad71b2ce5302211f9c61530b329a4922fc6a4"


def test_a_corrupted_cached_file_is_replaced(cache):
    ot.install()
    target = cache / ot.BPE_FILES[0].cache_name
    target.write_bytes(b"not a tokenizer")
    ot.install()
    assert hashlib.sha256(target.read_bytes()).hexdigest() == ot.BPE_FILES[0].sha256


def test_a_shipped_file_with_the_wrong_hash_is_refused(cache, monkeypatch):
    wrong = ot.BpeFile("o200k_base", ot.BPE_FILES[0].url, "0" * 64)
    monkeypatch.setattr(ot, "BPE_FILES", (wrong,))
    with pytest.raises(ot.TokenizerFileError, match="official hash is 0000"):
        ot.install()
    assert not (cache / wrong.cache_name).exists()


def test_an_empty_cache_variable_does_not_disable_the_offline_files(tmp_path, monkeypatch):
    # TIKTOKEN_CACHE_DIR="" tells tiktoken "no cache", which would mean downloading every time.
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")
    assert ot.cache_dir() != tmp_path and str(ot.cache_dir()) != ""


def test_plain_tiktoken_works_offline_in_a_fresh_process(tmp_path):
    """A learner's own code, with the network blocked and an empty cache: nothing to download."""
    script = textwrap.dedent(
        """
        from standin.netguard import block_network
        block_network()
        import tiktoken
        print(tiktoken.get_encoding("o200k_base").encode("Hello, world!"))
        print(tiktoken.get_encoding("cl100k_base").encode("Hello, world!"))
        print(tiktoken.get_encoding("o200k_harmony").n_vocab)
        print(tiktoken.encoding_for_model("gpt-4o").name, tiktoken.encoding_for_model("gpt-4").name)
        """
    )
    env = dict(os.environ, TIKTOKEN_CACHE_DIR=str(tmp_path / "fresh"))
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[:4] == [
        "[13225, 11, 2375, 0]",
        "[9906, 11, 1917, 0]",
        "201088",
        "o200k_base cl100k_base",
    ]
