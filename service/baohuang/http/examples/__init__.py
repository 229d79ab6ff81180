"""Request and response examples for the OpenAPI document (see :mod:`.docs`).

Every request example is a real request: sent to the service, it gets the documented status, and
the response holds at least what the response example shows (``tests/http/test_openapi_contract.py``
sends each one). Keys are ``(path template, method)``; values are OpenAPI Example Objects by name.
"""

from .positions import SNAPSHOT, TABLE_ID, Example, Examples
from .requests import REQUESTS
from .responses import PATH_PARAMETERS, RESPONSES

__all__ = [
    "PATH_PARAMETERS",
    "REQUESTS",
    "RESPONSES",
    "SNAPSHOT",
    "TABLE_ID",
    "Example",
    "Examples",
]
