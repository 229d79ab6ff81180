"""baohuang-rules: the rules referee for 保皇 (Baohuang).

Three layers, data flowing one way: ``engine`` (pure rules), ``http`` (Litestar app) and
``store`` (live tables). The engine never imports the other two.
"""

__version__ = "0.1.0"
