from enum import StrEnum

class Mode(StrEnum):
    GRAB = "grab"
    SOLO_HIDDEN = "solo_hidden"
    SOLO_OPEN = "solo_open"
    TEAM = "team"

    def __str__(self) -> str:
        return str(self.value)
