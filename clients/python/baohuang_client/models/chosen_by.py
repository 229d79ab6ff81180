from enum import StrEnum

class ChosenBy(StrEnum):
    PLATFORM = "platform"
    SERVICE = "service"

    def __str__(self) -> str:
        return str(self.value)
