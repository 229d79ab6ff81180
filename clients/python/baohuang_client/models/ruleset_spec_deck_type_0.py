from enum import StrEnum

class RulesetSpecDeckType0(StrEnum):
    FULL = "full"
    SHORT = "short"

    def __str__(self) -> str:
        return str(self.value)
