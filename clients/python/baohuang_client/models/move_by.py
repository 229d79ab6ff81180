from enum import StrEnum

class MoveBy(StrEnum):
    BOT = "bot"
    SEAT = "seat"
    TRUSTEE = "trustee"

    def __str__(self) -> str:
        return str(self.value)
