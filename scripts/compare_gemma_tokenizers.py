"""Compare the shipped Gemma 4 tokenizer with Gemma 3's: the check behind data/tokenizers/README.md.

Run (developer-only; it needs the maxtext wheel, which carries both SentencePiece models):

    pip download --no-deps --only-binary=:all: --python-version 3.12 maxtext==0.2.5 -d /tmp/mx
    .venv/bin/python scripts/compare_gemma_tokenizers.py /tmp/mx/maxtext-0.2.5-py3-none-any.whl \
        [CORPUS]

It checks that the wheel's Gemma 4 model is the shipped one (sha256), then compares it with the
wheel's Gemma 3 model: the normalizer and trainer settings (when ``protobuf`` is installed),
every piece's string, score and type, the strings only one of them has (they must be
``helpers.gemma.DIFFERENT``), and the token ids of many texts: every string of the recorded
corpus (``CORPUS``: ``index.json`` + ``bodies/``, if given), this repository's notebooks, docs
and code, random runs of ordinary pieces and random characters from many scripts, and Google's
documented examples (a text holding a string of ``DIFFERENT`` is left out: it splits otherwise,
and a count names it). It prints what it found and exits 1 on any difference it does not expect.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import random
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from helpers import gemma  # noqa: E402

TOKENIZERS = "maxtext/assets/tokenizers/"
BLOCKS = [(0x20, 0x7E), (0xA0, 0x24F), (0x300, 0x36F), (0x370, 0x4FF), (0x590, 0x6FF)]
BLOCKS += [(0x900, 0x97F), (0xE00, 0xE7F), (0x1100, 0x11FF), (0x2000, 0x206F), (0x3040, 0x30FF)]
BLOCKS += [(0x4E00, 0x9FFF), (0xAC00, 0xD7A3), (0xE000, 0xE0FF), (0x10000, 0x1007F)]
BLOCKS += [(0x1F300, 0x1FAFF)]


def _strings(value: object):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def texts(corpus: Path | None, pieces: list[str]) -> dict[str, list[str]]:
    """The texts to compare token ids on, by kind."""
    rnd = random.Random(34)
    out = {"Google's examples": ["What is your name?", "Hello, world!"]}
    if corpus:
        bodies = sorted((corpus / "bodies").glob("*/*.json"))
        out["corpus strings"] = [s for b in bodies for s in _strings(json.loads(b.read_text()))]
    kinds = ("notebooks/*.ipynb", "docs/*.md", "helpers/**/*.py", "standin/**/*.py", "*.md")
    out["repository"] = [p.read_text() for k in kinds for p in sorted(ROOT.glob(k))]
    ordinary = pieces[107:255999]
    out["random pieces"] = [
        rnd.choice(["", " ", "\n"]).join(
            rnd.choice(ordinary).replace("\u2581", " ") for _ in range(rnd.randint(1, 40))
        )
        for _ in range(3000)
    ]
    out["random characters"] = [
        "".join(
            chr(rnd.randint(*rnd.choice(BLOCKS))) + (" " if rnd.random() < 0.1 else "")
            for _ in range(rnd.randint(1, 60))
        )
        for _ in range(3000)
    ]
    return out


def _specs(raw4: bytes, raw3: bytes) -> str:
    try:
        from sentencepiece import sentencepiece_model_pb2 as pb
    except ImportError:
        return "normalizer and trainer settings: not compared (protobuf is not installed)"
    m4, m3 = pb.ModelProto(), pb.ModelProto()
    m4.ParseFromString(raw4)
    m3.ParseFromString(raw3)
    same = [m4.normalizer_spec == m3.normalizer_spec, m4.trainer_spec == m3.trainer_spec]
    same.append(m4.denormalizer_spec == m3.denormalizer_spec)
    if not all(same):
        raise SystemExit(f"settings differ (normalizer, trainer, denormalizer): {same}")
    return "normalizer, denormalizer and trainer settings: identical"


def main(argv: list[str]) -> int:
    import sentencepiece

    if not argv:
        print(__doc__)
        return 2
    with zipfile.ZipFile(argv[0]) as wheel:
        raw4 = wheel.read(TOKENIZERS + "tokenizer_gemma4.model")
        raw3 = wheel.read(TOKENIZERS + "tokenizer.gemma3")
    if raw4 != lzma.decompress(gemma.MODEL.read_bytes()):
        raise SystemExit("the wheel's Gemma 4 model is not the shipped file")
    print(f"the wheel's Gemma 4 model is the shipped file (sha256 {gemma.MODEL_SHA256})")
    print(f"Gemma 3 model: sha256 {hashlib.sha256(raw3).hexdigest()}")
    print(_specs(raw4, raw3))
    g4 = sentencepiece.SentencePieceProcessor(model_proto=raw4)
    g3 = sentencepiece.SentencePieceProcessor(model_proto=raw3)

    def piece(sp, i: int) -> tuple:
        kind = (sp.is_control(i), sp.is_unknown(i), sp.is_byte(i), sp.is_unused(i))
        return sp.id_to_piece(i), sp.get_score(i), kind

    size = g3.get_piece_size()
    assert g4.get_piece_size() == size
    differ = [i for i in range(size) if piece(g4, i) != piece(g3, i)]
    strings4 = {g4.id_to_piece(i) for i in range(size)}
    strings3 = {g3.id_to_piece(i) for i in range(size)}
    print(f"pieces: {size - len(differ):,} of {size:,} identical (string, score, type)")
    print(f"strings only one has: {len(strings3 - strings4)} + {len(strings4 - strings3)}")
    if strings3 ^ strings4 != set(gemma.DIFFERENT):
        raise SystemExit("the strings only one tokenizer has are not helpers.gemma.DIFFERENT")
    failures = 0
    corpus = Path(argv[1]) if len(argv) > 1 else None
    for kind, group in texts(corpus, [g3.id_to_piece(i) for i in range(size)]).items():
        marked = [t for t in group if gemma.differs(t)]  # expected to differ: the count says so
        group = [t for t in group if not gemma.differs(t)]
        same = sum(g4.encode(t) == g3.encode(t) for t in group)
        chars = sum(len(t) for t in group)
        print(
            f"{kind}: {same} of {len(group)} texts ({chars:,} characters) the same token ids"
            + (f" ({len(marked)} holding a string of DIFFERENT left out)" if marked else "")
        )
        failures += len(group) - same
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
