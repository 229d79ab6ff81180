"""``/v1/rulesets``: the registry of docs/rules.md, section R, with every option."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get
from litestar.params import PathParameter

from ...engine import BASES, Ruleset
from ..docs import problems
from ..problems import Problem


class RulesetsController(Controller):
    path = "/v1/rulesets"
    tags = ["rulesets"]

    @get("/", operation_id="listRulesets")
    async def list_rulesets(self) -> list[Ruleset]:
        """Every base ruleset with all its options' default values (R): ``kaopai``, ``bie6``,
        ``deck`` and ``grab``, each settable by the same name in a request's ``ruleset``."""
        return list(BASES.values())

    @get("/{name:str}", operation_id="getRuleset", responses=problems(404))
    async def get_ruleset(
        self, name: Annotated[str, PathParameter(description="A base ruleset's name (R)")]
    ) -> Ruleset:
        """One base ruleset by name; 404 when there is none."""
        ruleset = BASES.get(name)
        if ruleset is None:
            raise Problem(
                404,
                "UNKNOWN_RULESET",
                f"unknown ruleset '{name}': one of {', '.join(BASES)}",
                path="$.path.name",
                rule="R",
            )
        return ruleset
