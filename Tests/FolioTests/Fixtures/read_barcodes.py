"""Prints every barcode zxing-cpp (an independent decoder) finds in each image, one per line:
FORMAT<TAB>TEXT, in reading order (top to bottom)."""
import sys

import zxingcpp
from PIL import Image

for path in sys.argv[1:]:
    found = zxingcpp.read_barcodes(Image.open(path).convert("RGB"))
    for result in sorted(found, key=lambda r: (r.position.top_left.y, r.position.top_left.x)):
        print(f"{result.format}\t{result.text}")
