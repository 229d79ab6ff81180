from enum import StrEnum

class DealingMethod(StrEnum):
    COMMITTED = "committed"
    SEED = "seed"
    SNAPSHOT = "snapshot"

    def __str__(self) -> str:
        return str(self.value)
