"""The rules engine: pure functions over msgspec Structs. No I/O, no web or store imports."""
