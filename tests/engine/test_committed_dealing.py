"""docs/dealing.md, committed dealing (engine/before_play/committed.py): the shuffle a live table
commits to, the published test vectors, and the phase ``deal`` in which a committed deal waits
for the seats' entropy.

``reference_deal`` re-implements the algorithm from docs/dealing.md alone, over card codes and
with nothing of the engine, the way a client in another language would; the engine must agree
with it and with every published vector (docs/dealing-vectors.json, which the TypeScript SDK's
tests check too).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from baohuang.engine import (
    BASES,
    CODES,
    COMMITTED_ALGORITHM,
    InvalidInput,
    MoveRefused,
    PassMove,
    RulesetSpec,
    apply_move,
    auto_answer,
    commitment_of,
    committed_deal,
    legal_moves,
    legal_moves_of,
    read_entropy,
    ruleset_of,
    score,
    undealt_snapshot,
    validate_snapshot,
    verify_move,
)
from baohuang.engine.before_play.committed import Sha256Stream, deal_key
from baohuang.engine.before_play.deal import shuffled_with
from baohuang.engine.reasons import NOT_DEALT

ROOT = Path(__file__).resolve().parents[2]
VECTORS = json.loads((ROOT / "docs" / "dealing-vectors.json").read_text(encoding="utf-8"))
RANKS = "3456789TJQKA2"
SUITS = "SHCD"

seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)
entropies = st.lists(
    st.one_of(st.none(), st.binary(min_size=1, max_size=64).map(bytes.hex)),
    min_size=5,
    max_size=5,
)


def reference_deal(
    base: str, deck_kind: str, seed: str, entropy: list[str | None], dealer: int
) -> tuple[list[list[str]], int]:
    """docs/dealing.md, step by step, over codes."""
    # steps 1–4: the key
    message = b"baohuang/deal/1" + bytes.fromhex(seed)
    for seat_entropy in entropy:
        added = bytes.fromhex(seat_entropy) if seat_entropy is not None else b""
        message += bytes([len(added)]) + added
    key = hashlib.sha256(message).digest()

    # step 5: SHA-256 in counter mode, four big-endian 64-bit draws a block
    def draws() -> Any:
        counter = 0
        while True:
            block = hashlib.sha256(key + counter.to_bytes(8, "big")).digest()
            counter += 1
            for at in range(0, 32, 8):
                yield int.from_bytes(block[at : at + 8], "big")

    stream = draws()
    # the canonical deck: ids ascending, within a rank D C H S
    lowest = 3 if deck_kind == "short" else 0
    deck = [r + s for r in RANKS[lowest:] for s in reversed(SUITS) for _ in range(4)]
    deck += ["SJ", "SJ", "SJ", "SJ*"] if base == "lianzhong-simple" else ["SJ"] * 4
    deck += ["BJ", "BJ", "BJ"] + ([] if base == "tribute" else ["BJ*"])
    # Fisher–Yates from the top, below(n) by rejection
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = 2**64 - 2**64 % n
        r = next(stream)
        while r >= limit:
            r = next(stream)
        j = r % n
        deck[i], deck[j] = deck[j], deck[i]
    hands: list[list[str]] = [[] for _ in range(5)]
    for k, code in enumerate(deck):
        hands[(dealer + k) % 5].append(code)
    if base == "tribute":
        crown = dealer
        hands[crown].append("BJ*")
    else:
        crown = next(s for s in range(5) if "BJ*" in hands[s])

    def order(code: str) -> tuple[int, int]:
        if code.startswith(("SJ", "BJ")):
            return (13 if code[0] == "S" else 14, 1 if code.endswith("*") else 0)
        return (RANKS.index(code[0]), 3 - SUITS.index(code[1]))

    return [sorted(hand, key=order, reverse=True) for hand in hands], crown


@given(seed=seeds, entropy=entropies, dealer=st.integers(0, 4), base=st.sampled_from(list(BASES)))
def test_G_4_committed_deal_follows_the_documented_algorithm(
    seed: str, entropy: list[str | None], dealer: int, base: str
) -> None:
    ruleset = BASES[base]
    dealt = committed_deal(ruleset, seed, entropy, dealer)
    assert (dealt.hands, dealt.crown) == reference_deal(base, ruleset.deck, seed, entropy, dealer)


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=lambda vector: vector["name"])
def test_G_4_published_committed_vectors(vector: dict[str, Any]) -> None:
    """Every field of every vector in docs/dealing-vectors.json is what the engine computes."""
    assert VECTORS["algorithm"] == COMMITTED_ALGORITHM
    spec = vector["ruleset"]
    ruleset = ruleset_of(spec if isinstance(spec, str) else msgspec.convert(spec, RulesetSpec))
    seed, entropy = vector["seed"], vector["entropy"]
    assert commitment_of(seed) == vector["commitment"]
    key = deal_key(seed, entropy)
    assert key.hex() == vector["key"]
    stream = Sha256Stream(key)
    assert [f"{stream.next():016x}" for _ in vector["draws"]] == vector["draws"]
    deck = shuffled_with(ruleset, Sha256Stream(key))
    assert [CODES[card] for card in deck[: len(vector["dealt_first"])]] == vector["dealt_first"]
    dealt = committed_deal(ruleset, seed, entropy, vector["dealer"])
    assert dealt.crown == vector["crown"]
    assert dealt.hands == vector["hands"]


def test_G_4_the_commitment_is_the_seeds_sha256() -> None:
    """SHA-256 of the bytes 0x00…0x1f is a well-known digest: the commitment hashes the seed's
    bytes, not its hex text."""
    seed = bytes(range(32)).hex()
    assert commitment_of(seed) == hashlib.sha256(bytes(range(32))).hexdigest()
    assert commitment_of(seed).startswith("630dcd2966c4336691125448bbb25b4f")


@given(seed=seeds, entropy=entropies, seat=st.integers(0, 4), extra=st.binary(min_size=1))
def test_G_4_any_seats_entropy_changes_the_deal(
    seed: str, entropy: list[str | None], seat: int, extra: bytes
) -> None:
    """A seat that adds entropy (or other entropy) gets another deal: nobody who knew the seed
    alone could have chosen its cards."""
    changed = list(entropy)
    before = changed[seat]
    added = (bytes.fromhex(before) if before else b"") + extra
    changed[seat] = added[:64].hex() if added[:64].hex() != before else "00" * 64
    classic = BASES["classic"]
    assert committed_deal(classic, seed, entropy, 0) != committed_deal(classic, seed, changed, 0)


def test_G_4_entropy_is_placed_by_seat() -> None:
    """The same bytes added by another seat, or split between seats, make another key: each
    seat's entropy is length-prefixed in seat order."""
    seed = "ab" * 32
    one = deal_key(seed, ["0102", None, None, None, None])
    assert one != deal_key(seed, [None, "0102", None, None, None])
    assert one != deal_key(seed, ["01", "02", None, None, None])


@pytest.mark.parametrize("base", list(BASES))
def test_G_4_committed_deal_deals_every_card_once(base: str) -> None:
    ruleset = BASES[base]
    expected = Counter(
        code for hand in committed_deal(ruleset, "00" * 32, [None] * 5, 0).hands for code in hand
    )
    for n in range(20):
        seed = hashlib.sha256(bytes([n])).hexdigest()
        dealt = committed_deal(ruleset, seed, ["aa", None, None, None, f"{n:02x}"], n % 5)
        assert Counter(code for hand in dealt.hands for code in hand) == expected
        assert sum(map(len, dealt.hands)) == (168 if ruleset.deck == "short" else 216)


@pytest.mark.parametrize(
    "seed", ["", "00" * 31, "00" * 33, "AB" * 32, "zz" * 32, " " + "00" * 31 + "0"]
)
def test_G_4_a_seed_is_64_lowercase_hex_digits(seed: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        commitment_of(seed)
    assert raised.value.code == "INVALID_SEED" and raised.value.rule == "G-4"


@pytest.mark.parametrize("entropy", ["", "0", "ABCD", "00" * 65, "xyz0"])
def test_G_4_entropy_is_1_to_64_bytes_of_lowercase_hex(entropy: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        read_entropy(entropy)
    assert raised.value.code == "INVALID_ENTROPY"
    assert read_entropy("00" * 64) == bytes(64)
    with pytest.raises(InvalidInput):
        deal_key("00" * 32, [None] * 4)  # five seats, always


@pytest.mark.parametrize("base", list(BASES))
def test_G_4_an_undealt_deal_has_nothing_to_judge(base: str) -> None:
    """Phase ``deal``: a live table's committed deal before its cards are dealt. No move is
    legal (NOT_DEALT), there are none to list, 托管 has none to make, nothing is scored, and
    no stateless route judges such a snapshot."""
    waiting = undealt_snapshot(base, 3)
    assert waiting.phase == "deal" and waiting.turn == 3 and waiting.hands == [[]] * 5
    assert verify_move(waiting, PassMove(3)) == NOT_DEALT
    with pytest.raises(MoveRefused) as refused:
        apply_move(waiting, PassMove(3))
    assert refused.value.reason.code == "NOT_DEALT" and refused.value.reason.rule == "G-4"
    assert legal_moves(waiting) == [] and legal_moves_of(waiting, 0) == []
    assert auto_answer(waiting) == NOT_DEALT
    assert not score(waiting).final
    with pytest.raises(InvalidInput) as invalid:
        validate_snapshot(waiting)
    assert invalid.value.code == "INVALID_SNAPSHOT" and invalid.value.path == ".snapshot.phase"
