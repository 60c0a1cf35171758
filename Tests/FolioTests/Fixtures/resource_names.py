"""Prints every resource dictionary (/XObject, /Font, /Pattern, /Shading) of the PDFs named on the
command line that names a resource twice, reading the objects as written (object streams
inflated, nothing parsed and written again); exits 1 when there is one."""
import re
import sys
import zlib

repeated = []
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    texts = [data]
    for match in re.finditer(rb"obj\s*<<(.*?)>>\s*stream\r?\n", data, re.S):
        if b"/ObjStm" in match.group(1):
            length = int(re.search(rb"/Length (\d+)", match.group(1)).group(1))
            texts.append(zlib.decompress(data[match.end():match.end() + length]))
    for text in texts:
        for kind, body in re.findall(rb"/(XObject|Font|Pattern|Shading)\s*<<([^<>]*)>>", text):
            names = re.findall(rb"/([^\s/<>\[\]()]+)\s+\d+\s+0\s+R", body)
            if len(names) != len(set(names)):
                repeated.append(f"{path}: /{kind.decode()} << {body.decode(errors='replace').strip()} >>")
print("\n".join(repeated))
sys.exit(1 if repeated else 0)
