"""Prints what a reader's viewer finds in a PDF's table of contents (pikepdf): for each link annotation
on its first N pages, "link PAGE TARGET" (pages from 1; the target the link's named destination or
GoTo action lands on), and for each TOC structure element, "toc COUNT" (its TOCI children)."""
import sys

import pikepdf

pdf = pikepdf.open(sys.argv[1])
first = int(sys.argv[2])
pages = {page.objgen: index + 1 for index, page in enumerate(pdf.pages)}
names = {}
if "/Names" in pdf.Root and "/Dests" in pdf.Root.Names:
    tree = pikepdf.NameTree(pdf.Root.Names.Dests)
    for key, value in tree.items():
        names[key] = value


def target_of(destination):
    if isinstance(destination, (pikepdf.String, str, bytes)):
        destination = names.get(str(destination))
    if isinstance(destination, pikepdf.Dictionary):
        destination = destination.D
    return pages.get(destination[0].objgen, 0) if destination is not None else 0


for index, page in enumerate(pdf.pages[:first]):
    for annotation in page.get("/Annots", []):
        if annotation.get("/Subtype") != "/Link":
            continue
        destination = annotation.get("/Dest")
        if destination is None and "/A" in annotation and annotation.A.get("/S") == "/GoTo":
            destination = annotation.A.D
        print("link", index + 1, target_of(destination))


def walk(node):
    kids = node.get("/K")
    if kids is None:
        return
    for kid in kids if isinstance(kids, pikepdf.Array) else [kids]:
        if isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
            if kid.S == "/TOC":
                items = kid.get("/K")
                items = items if isinstance(items, pikepdf.Array) else [items]
                print("toc", sum(1 for item in items if isinstance(item, pikepdf.Dictionary) and item.get("/S") == "/TOCI"))
            walk(kid)


walk(pdf.Root.StructTreeRoot)
