"""Prints where a PDF's footnotes and their citations are (pikepdf): for each link annotation whose
named destination is a note ("folio-footnote-N") or a note's way back ("folio-footnote-ref-N"), a line
"cite N PAGE Y" or "back N PAGE Y" (the annotation's page from 1 and the top of its rectangle); for
each such destination, "note N PAGE Y" or "ref N PAGE Y" (where it lands); and for each Note structure
element, "element ID PAGE LABEL" (its /ID, its page, its Lbl's text as the annotation inside says)."""
import sys

import pikepdf

pdf = pikepdf.open(sys.argv[1])
pages = {page.objgen: index + 1 for index, page in enumerate(pdf.pages)}
if "/Names" in pdf.Root and "/Dests" in pdf.Root.Names:
    for name, destination in pikepdf.NameTree(pdf.Root.Names.Dests).items():
        if isinstance(destination, pikepdf.Dictionary):
            destination = destination.D
        for prefix, kind in (("folio-footnote-ref-", "ref"), ("folio-footnote-", "note")):
            if name.startswith(prefix):
                print(kind, name[len(prefix):], pages.get(destination[0].objgen, 0), float(destination[3]))
                break
for index, page in enumerate(pdf.pages):
    for annotation in page.get("/Annots", []):
        destination = annotation.get("/Dest")
        if destination is None and "/A" in annotation and annotation.A.get("/S") == "/GoTo":
            destination = annotation.A.D
        name = str(destination) if isinstance(destination, (pikepdf.String, str)) else ""
        top = float(annotation.Rect[3])
        if name.startswith("folio-footnote-ref-"):
            print("back", name[len("folio-footnote-ref-"):], index + 1, top)
        elif name.startswith("folio-footnote-"):
            print("cite", name[len("folio-footnote-"):], index + 1, top)


def walk(node):
    kids = node.get("/K")
    if kids is None:
        return
    for kid in kids if isinstance(kids, pikepdf.Array) else [kids]:
        if isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
            if kid.S == "/Note":
                labels = [k for k in (kid.K if isinstance(kid.K, pikepdf.Array) else [kid.K]) if isinstance(k, pikepdf.Dictionary) and k.get("/S") == "/Lbl"]
                print("element", str(kid.get("/ID", "")), pages.get(kid.Pg.objgen, 0) if "/Pg" in kid else 0, len(labels))
            walk(kid)


walk(pdf.Root.StructTreeRoot)
