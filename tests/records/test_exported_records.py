"""Deal records exported from live tables verify offline, and tampered ones fail naming the act
(docs/records.md).

Tables of every ruleset are played at random through the table service, deal after deal
(tests/record_support.py: committed, seeded and given deals, entropy, random moves, timeouts,
托管 asked for and left, seats leaving, tribute between deals), with time under the test's
control. Every deal's record, as the platform reads it (``GET /deals/{deal}``'s bytes), is
checked by :func:`baohuang.records.verify` after a trip through its JSON, and so is every
caller's record of a finished committed deal; each tampered copy must fail, naming the act (or
part) that was changed. The thorough run plays 200 deals of each ruleset; the quick loop a few.
"""

from __future__ import annotations

import random

import pytest

from baohuang.records import FullRecord, decode_record, encode_record, verify
from baohuang.store import MemoryTableStore
from baohuang.tables import Authority, TableService, flow
from baohuang.tables.callers import PLATFORM, Caller
from record_support import RULESETS, TAMPERS, SeededSecrets, play_table
from table_support import Time

pytestmark = pytest.mark.anyio

DEALS_PER_TABLE = 5


async def _export_and_verify(
    ruleset: str, tables: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> dict[str, int]:
    """Play ``tables`` tables of ``ruleset``; verify every deal's record and its tampered
    copies. How many records and tampers were checked."""
    rng = random.Random(seed)
    monkeypatch.setattr(flow, "secrets", SeededSecrets(random.Random(seed)))
    time = Time()
    service = TableService(
        MemoryTableStore(), Authority((), "records"), clock=time, deals_kept=DEALS_PER_TABLE
    )
    counts = {"records": 0, "tampered": 0, "committed": 0}
    for number in range(tables):
        table_id = f"{ruleset}-{number}"
        seats = await play_table(service, time, table_id, ruleset, DEALS_PER_TABLE, rng)
        kept = await service.kept_deals(table_id, PLATFORM)
        assert [summary.deal for summary in kept.deals] == list(range(1, DEALS_PER_TABLE + 1))
        for summary in kept.deals:
            record = await service.deal_record(table_id, PLATFORM, summary.deal)
            exported = decode_record(encode_record(record))
            assert exported == record
            verdict = verify(exported)
            assert verdict.valid, (table_id, summary.deal, verdict.failure)
            assert isinstance(exported, FullRecord) and verdict.acts == len(exported.acts)
            counts["records"] += 1
            if summary.method == "committed":
                counts["committed"] += 1
                for caller in (*seats, Caller("spectator", None, kept.instance)):
                    theirs = await service.deal_record(table_id, caller, summary.deal)
                    assert theirs == record  # revealed: everyone's record is whole
            for name, tamper in TAMPERS.items():
                changed = tamper(exported, rng)
                if changed is None:
                    continue
                tampered, act, part = changed
                failed = verify(decode_record(encode_record(tampered))).failure
                assert failed is not None, (name, table_id, summary.deal)
                assert (failed.part, failed.act) == (part, act), (name, failed)
                assert failed.rule is not None and failed.code, failed
                counts["tampered"] += 1
    return counts


@pytest.mark.parametrize("ruleset", RULESETS)
async def test_records_of_a_few_random_deals_verify_and_tampered_ones_fail(
    ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    counts = await _export_and_verify(ruleset, 1, RULESETS.index(ruleset), monkeypatch)
    assert counts["records"] == DEALS_PER_TABLE and counts["tampered"] >= DEALS_PER_TABLE * 2


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
async def test_records_of_200_random_deals_verify_and_tampered_ones_fail(
    ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    tables = 200 // DEALS_PER_TABLE
    counts = await _export_and_verify(ruleset, tables, 1000 + RULESETS.index(ruleset), monkeypatch)
    assert counts["records"] == 200
    assert counts["committed"] > 20 and counts["tampered"] > 400
