"""The HTTP layer: Litestar app, controllers, problem documents and metrics.

Controllers decode request bodies with the strict decoders of :mod:`.bodies`, call the engine, and
return Structs; every bad input leaves through :mod:`.problems` as an RFC 9457 document.
"""
