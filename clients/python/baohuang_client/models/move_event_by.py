from enum import StrEnum

class MoveEventBy(StrEnum):
    SEAT = "seat"
    TRUSTEE = "trustee"

    def __str__(self) -> str:
        return str(self.value)
