"""Committed dealing (docs/dealing.md "Committed dealing", docs/rules.md G-4): a deal the service
commits to before anyone sees a card, into which the seats may mix their own entropy, and which
anyone can deal again once the seed is revealed.

Algorithm ``sha256-ctr/1``, step by step (the steps of :mod:`.deal` not named here are shared):

1. **Seed**: 32 random bytes, chosen by the service; written as 64 lowercase hex digits.
2. **Commitment**: ``SHA-256(seed)``, the 32 seed bytes hashed, as 64 lowercase hex digits. It is
   published before any card is dealt; the seed itself only once the deal is over.
3. **Entropy**: each seat may add 1 to 64 bytes of its own (hex on the wire), once, before the
   cards are dealt; a seat that adds none contributes nothing (length 0).
4. **Key**: ``SHA-256("baohuang/deal/1" || seed || len(e0) || e0 || … || len(e4) || e4)``: the
   15 ASCII bytes of the label, the 32 seed bytes, then for seats 0 to 4 in order one byte with
   the length of the seat's entropy and its bytes.
5. **Stream**: block ``i`` (0, 1, 2, …) is ``SHA-256(key || i)``, ``i`` as 8 bytes big-endian;
   each block gives four 64-bit draws, its bytes 0–7, 8–15, 16–23, 24–31 read big-endian. The
   draws are taken in that order, block after block.
6. **Shuffle and deal**: as for a seed (:mod:`.deal`, steps 2 and 4–8) with these draws in place
   of SplitMix64's: the canonical deck, ``below(n)`` by rejection, Fisher–Yates from the top,
   one card at a time from the dealer on, hands high to low.

The test vectors are in docs/dealing-vectors.json (tests/engine/test_committed_dealing.py checks
them, and so do the TypeScript SDK's tests).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Final

from ..errors import InvalidInput
from ..rulesets import SEATS, Ruleset
from .deal import Dealt, Draws, deal_shuffled, dealt_from

__all__ = [
    "ALGORITHM",
    "ENTROPY_MAX_BYTES",
    "SEED_BYTES",
    "Sha256Stream",
    "commitment_of",
    "committed_deal",
    "deal_key",
    "read_entropy",
    "read_seed",
]

ALGORITHM: Final = "sha256-ctr/1"
"""The committed dealing's name and version: a record names it, and a change of any step above
is a new version."""
SEED_BYTES: Final = 32
ENTROPY_MAX_BYTES: Final = 64
LABEL: Final = b"baohuang/deal/1"
ENTROPY_PATTERN: Final = f"^(?:[0-9a-f]{{2}}){{1,{ENTROPY_MAX_BYTES}}}$"
SEED_PATTERN: Final = f"^[0-9a-f]{{{2 * SEED_BYTES}}}$"
_ENTROPY = re.compile(ENTROPY_PATTERN)
_SEED = re.compile(SEED_PATTERN)


class Sha256Stream(Draws):
    """The draws of step 5: SHA-256 in counter mode over ``key``."""

    __slots__ = ("block", "counter", "key")

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.counter = 0
        self.block: list[int] = []

    def next(self) -> int:
        if not self.block:
            digest = hashlib.sha256(self.key + self.counter.to_bytes(8, "big")).digest()
            self.counter += 1
            self.block = [int.from_bytes(digest[at : at + 8], "big") for at in (24, 16, 8, 0)]
        return self.block.pop()  # the block's words were stacked last first


def read_seed(seed: str, path: str = "") -> bytes:
    """A seed written as 64 lowercase hex digits (step 1), as bytes; bad input otherwise."""
    if not _SEED.match(seed):
        raise InvalidInput(
            "INVALID_SEED", "G-4", "a committed seed is 64 lowercase hex digits (32 bytes)", path
        )
    return bytes.fromhex(seed)


def read_entropy(entropy: str, path: str = "") -> bytes:
    """A seat's entropy written as 2 to 128 lowercase hex digits (step 3), as bytes."""
    if not _ENTROPY.match(entropy):
        raise InvalidInput(
            "INVALID_ENTROPY",
            "G-4",
            f"entropy is 1 to {ENTROPY_MAX_BYTES} bytes written as lowercase hex digits",
            path,
        )
    return bytes.fromhex(entropy)


def commitment_of(seed: str) -> str:
    """Step 2: the commitment to ``seed`` (hex), as hex."""
    return hashlib.sha256(read_seed(seed, ".seed")).hexdigest()


def deal_key(seed: str, entropy: Sequence[str | None]) -> bytes:
    """Step 4: the key of the stream, from the seed and each seat's entropy (``None``: none)."""
    if len(entropy) != SEATS:
        raise InvalidInput("INVALID_ENTROPY", "G-4", "entropy is given for five seats", ".entropy")
    parts = [LABEL, read_seed(seed, ".seed")]
    for seat, given in enumerate(entropy):
        added = b"" if given is None else read_entropy(given, f".entropy[{seat}]")
        parts += [bytes([len(added)]), added]
    return hashlib.sha256(b"".join(parts)).digest()


def committed_deal(
    ruleset: Ruleset, seed: str, entropy: Sequence[str | None], dealer: int
) -> Dealt:
    """G-4, committed: the deal of ``seed`` and the seats' ``entropy`` from ``dealer``."""
    return dealt_from(*deal_shuffled(ruleset, Sha256Stream(deal_key(seed, entropy)), dealer))
