from enum import StrEnum

class MoveEventBy(StrEnum):
    BOT = "bot"
    SEAT = "seat"
    TRUSTEE = "trustee"

    def __str__(self) -> str:
        return str(self.value)
