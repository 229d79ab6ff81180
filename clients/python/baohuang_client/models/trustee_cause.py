from enum import StrEnum

class TrusteeCause(StrEnum):
    LEAVE = "leave"
    REQUEST = "request"
    TIMEOUT = "timeout"

    def __str__(self) -> str:
        return str(self.value)
