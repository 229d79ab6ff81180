from enum import StrEnum

class TrusteeLevel(StrEnum):
    HEURISTIC = "heuristic"
    SEARCH = "search"

    def __str__(self) -> str:
        return str(self.value)
