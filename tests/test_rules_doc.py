"""The rules live beside the code: ``docs/rules.md`` defines every rule id the project cites.

* every rule id cited in the code, the tests or the other documents is defined in docs/rules.md;
* every rule defined there has at least one test named after it (``test_N_2_...``);
* every rule is listed in the table "Where each rule lives", naming modules that exist;
* the code and the tests cite only what the repository holds.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES_DOC = ROOT / "docs" / "rules.md"
THIS_FILE = Path(__file__).resolve()

SECTIONS = "ADCNKBTRGSP"
CITED = re.compile(rf"\b[{SECTIONS}]-\d+\b")
DEFINED = re.compile(rf"^- \*\*([{SECTIONS}]-\d+)\*\*", re.MULTILINE)
TEST_NAME_ID = re.compile(rf"(?:^|_)([{SECTIONS}])_(\d+)(?=_|$)")
TABLE_ROW = re.compile(rf"^\| ([{SECTIONS}](?:-\d+)?) \| (.+?) \|\s*(.*?)\s*\|$", re.MULTILINE)
TABLE_MODULE = re.compile(r"`([\w/]+\.py)`")

# References to documents and notes kept outside this repository, which its readers never see.
OUTSIDE = [
    re.compile(r"RULES\.md"),
    re.compile(r"API\.md"),
    re.compile(r"STYLE\.md"),
    re.compile(r"\.\./shared"),
    re.compile(r"\bshared/seeds\b"),
    re.compile(r"\bseeds? 0\d\d\b"),
    re.compile(r"\bissues? #?\d+", re.IGNORECASE),
]


def _doc() -> str:
    return RULES_DOC.read_text(encoding="utf-8")


def defined_ids() -> list[str]:
    return DEFINED.findall(_doc())


def _text_files(*places: Path) -> Iterator[tuple[Path, str]]:
    for place in places:
        paths = [place] if place.is_file() else sorted(place.rglob("*"))
        for path in paths:
            if not path.is_file() or "__pycache__" in path.parts or path.resolve() == THIS_FILE:
                continue
            if "reference_assets" in path.parts:  # Swagger UI, vendored: it cites none of ours
                continue
            try:
                yield path, path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue  # binary files cite nothing


TEST_DEF = re.compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]+(test\w*)[ \t]*\(", re.MULTILINE)
"""A test function's definition, at any depth (methods and nested functions too): the names
it finds are the ones a walk of each module's syntax tree finds, thirty times faster."""


@functools.cache
def _test_names() -> tuple[tuple[Path, str], ...]:
    """Every test function's name, with its module: read once per process (two tests read
    them)."""
    return tuple(
        (path, name)
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for name in TEST_DEF.findall(path.read_text(encoding="utf-8"))
    )


def _ids_in_name(name: str) -> set[str]:
    return {f"{letter}-{number}" for letter, number in TEST_NAME_ID.findall(name)}


def test_rules_doc_defines_each_id_once_in_every_section() -> None:
    ids = defined_ids()
    assert len(ids) == len(set(ids)), "a rule id is defined twice"
    sections = {rule_id.split("-")[0] for rule_id in ids}
    assert sections == set(SECTIONS) - {"A", "R"}, sections  # terms and rulesets carry no ids
    for rule_id in ("D-1", "N-2", "K-3", "T-7", "G-5", "S-4", "P-4"):
        assert rule_id in ids


def test_every_cited_rule_is_defined() -> None:
    """(a) A rule id cited in the code, the tests, the contract or the documents exists."""
    defined = set(defined_ids())
    places = [
        ROOT / "service",
        ROOT / "tests",
        ROOT / "openapi",
        ROOT / "bench",
        ROOT / "README.md",
        *(path for path in (ROOT / "docs").glob("*.md") if path != RULES_DOC),
    ]
    unknown = [
        f"{path.relative_to(ROOT)}: {rule_id}"
        for path, text in _text_files(*places)
        for rule_id in sorted(set(CITED.findall(text)))
        if rule_id not in defined
    ]
    unknown += [
        f"{path.relative_to(ROOT)}::{name}: {rule_id}"
        for path, name in _test_names()
        for rule_id in sorted(_ids_in_name(name))
        if rule_id not in defined
    ]
    assert not unknown, "cited but not defined in docs/rules.md:\n" + "\n".join(unknown)


def test_every_rule_has_a_named_test() -> None:
    """(b) Each rule has a test whose name carries its id: ``test_N_2_...`` or ``..._N_2_...``."""
    named: set[str] = set()
    for _, name in _test_names():
        named |= _ids_in_name(name)
    missing = [rule_id for rule_id in defined_ids() if rule_id not in named]
    assert not missing, "rules without a named test: " + ", ".join(missing)


def test_where_each_rule_lives_lists_every_rule_and_existing_modules() -> None:
    doc = _doc()
    table = doc.split("## Where each rule lives", 1)[1]
    rows = {rule: (modules, note) for rule, modules, note in TABLE_ROW.findall(table)}
    missing = [rule_id for rule_id in defined_ids() if rule_id not in rows]
    assert not missing, "rules missing from 'Where each rule lives': " + ", ".join(missing)
    assert not set(rows) - set(defined_ids()) - {"R"}, "the table lists undefined rules"
    for rule, (modules, note) in rows.items():
        named = TABLE_MODULE.findall(modules)
        if not named:
            assert "not implemented" in note, f"{rule}: name a module or say it is not implemented"
        for module in named:
            assert (ROOT / "service" / "baohuang" / module).is_file(), f"{rule}: no {module}"


def test_code_cites_only_the_repository() -> None:
    """(c) The code and the tests cite the rules by id (docs/rules.md) and nothing outside."""
    found: dict[str, list[str]] = {}
    for path, text in _text_files(ROOT / "service", ROOT / "tests", ROOT / "bench"):
        for number, line in enumerate(text.splitlines(), start=1):
            for pattern in OUTSIDE:
                for match in pattern.finditer(line):
                    where = path.relative_to(ROOT).as_posix()
                    found.setdefault(where, []).append(f"{where}:{number}: {match.group(0)}")
    unexpected = [line for lines in found.values() for line in lines]
    assert not unexpected, "references to documents outside the repository:\n" + "\n".join(
        unexpected
    )


def test_the_checks_themselves_catch_what_they_look_for() -> None:
    """The patterns above find what they must and leave alone what only looks like a rule id."""
    assert CITED.findall("N-2, T-10 and G-5…G-7") == ["N-2", "T-10", "G-5", "G-7"]
    assert not CITED.findall("UTF-8, SHA-256, RFC-9457, X-1, utf-8, n-2, AN-2")
    assert _ids_in_name("test_T_1_not_your_turn") == {"T-1"}
    assert _ids_in_name("test_scores_S_2_team") == {"S-2"}
    assert _ids_in_name("test_D_5_C_1_reading") == {"D-5", "C-1"}
    assert _ids_in_name("test_T_10") == {"T-10"}
    assert not _ids_in_name("test_T_1x_and_abc_N_") and not _ids_in_name("test_moves_legal")
    outside = "see RULES" + ".md, seed " + "003, Issue " + "6 and ../" + "shared/x"
    assert sum(bool(pattern.search(outside)) for pattern in OUTSIDE) == 4
    assert not any(pattern.search("seed 1, a shared Redis, UTF-8") for pattern in OUTSIDE)
