from enum import StrEnum

class RulesetScoring(StrEnum):
    S_2 = "S-2"
    S_3 = "S-3"
    S_4 = "S-4"

    def __str__(self) -> str:
        return str(self.value)
