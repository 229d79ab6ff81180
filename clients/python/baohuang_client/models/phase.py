from enum import StrEnum

class Phase(StrEnum):
    CROWN = "crown"
    DEAL = "deal"
    GUARD = "guard"
    PLAY = "play"

    def __str__(self) -> str:
        return str(self.value)
