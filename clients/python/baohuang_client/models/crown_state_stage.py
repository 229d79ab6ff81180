from enum import StrEnum

class CrownStateStage(StrEnum):
    CALL = "call"
    DECLARE = "declare"
    GRAB = "grab"

    def __str__(self) -> str:
        return str(self.value)
