from enum import StrEnum

class CrownStateStageType0(StrEnum):
    CALL = "call"
    DECLARE = "declare"
    GRAB = "grab"

    def __str__(self) -> str:
        return str(self.value)
