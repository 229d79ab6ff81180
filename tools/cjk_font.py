"""Make the page's CJK font: a subset of Noto Sans CJK SC holding exactly the CJK characters the
reference table's files use (service/baohuang/play/static/cjk.woff).

Why: a machine without CJK fonts draws every Chinese label of /play as empty boxes. The whole
Noto font is 16 MB; the page uses a few hundred characters, so it ships those only (tens of
kilobytes) and the stylesheet's @font-face takes them, for CJK code points only. Run again after
adding Chinese text to the page; tests/http/test_play_page.py fails until you do:

    pip install fonttools   # the generator only: the service and its tests do not need it
    python tools/cjk_font.py [--font /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc]

WOFF 1 (zlib) rather than WOFF2: it needs no brotli, and the test reads its cmap with the
standard library alone.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from baohuang.play import cjk_characters

STATIC = Path(__file__).resolve().parent.parent / "service" / "baohuang" / "play" / "static"
OUTPUT = STATIC / "cjk.woff"
FONT = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
FAMILY = "Noto Sans CJK SC"


def main() -> None:
    from fontTools import subset
    from fontTools.ttLib import TTCollection

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--font", type=Path, default=FONT)
    args = parser.parse_args()
    collection = TTCollection(str(args.font))
    font = next(f for f in collection.fonts if f["name"].getDebugName(1) == FAMILY)
    wanted = cjk_characters()
    options = subset.Options()
    options.flavor = "woff"
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="".join(sorted(wanted)))
    subsetter.subset(font)
    font.flavor = "woff"
    font.save(str(OUTPUT))
    print(f"{OUTPUT.name}: {len(wanted)} characters, {OUTPUT.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
