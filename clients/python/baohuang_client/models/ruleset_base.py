from enum import StrEnum

class RulesetBase(StrEnum):
    CLASSIC = "classic"
    LIANZHONG_CLASSIC = "lianzhong-classic"
    LIANZHONG_SIMPLE = "lianzhong-simple"
    TRIBUTE = "tribute"

    def __str__(self) -> str:
        return str(self.value)
