from enum import StrEnum

class RulesetGuardBy(StrEnum):
    CALL = "call"
    CALL_ANY = "call-any"
    CALL_NO_JOKER_NO_TWO = "call-no-joker-no-two"
    SWORD = "sword"

    def __str__(self) -> str:
        return str(self.value)
