"""Values that compare equal to what a test does not pin down."""

from __future__ import annotations


class _AnyToken(str):
    """Equal to any write token: tests pin versions and bytes, the store picks the tokens."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str)

    def __ne__(self, other: object) -> bool:
        return not isinstance(other, str)

    __hash__ = str.__hash__


ANY_TOKEN = _AnyToken("<any token>")
