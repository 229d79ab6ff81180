"""One controller per resource; each decodes, calls the engine, and times the engine call."""
