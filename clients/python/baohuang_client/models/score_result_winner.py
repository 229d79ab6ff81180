from enum import StrEnum

class ScoreResultWinner(StrEnum):
    DRAW = "draw"
    EMPEROR = "emperor"
    REBELS = "rebels"

    def __str__(self) -> str:
        return str(self.value)
