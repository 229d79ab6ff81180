from enum import StrEnum

class Level(StrEnum):
    HEURISTIC = "heuristic"
    SEARCH = "search"

    def __str__(self) -> str:
        return str(self.value)
