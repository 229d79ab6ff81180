from enum import StrEnum

class SeatStateBot(StrEnum):
    HEURISTIC = "heuristic"
    SEARCH = "search"

    def __str__(self) -> str:
        return str(self.value)
