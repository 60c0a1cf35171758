"""Checks a signed PDF as a recipient's tools would, and prints what it found as one JSON object:
pyHanko (an independent PDF signature library) validates the signature against the trust root
given, says what it covers and what its CMS holds; pikepdf reads the signature field as a
screen reader and a PDF/A checker would see it.

Usage: validate_signature.py FILE.pdf ROOT.pem [PASSWORD]"""
import json
import re
import sys

import pikepdf
from pyhanko.keys import load_cert_from_pemder
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko_certvalidator import ValidationContext

path, root_path = sys.argv[1], sys.argv[2]
password = sys.argv[3] if len(sys.argv) > 3 else None
result = {}
with open(path, "rb") as handle:
    reader = PdfFileReader(handle)
    if password is not None:
        reader.decrypt(password)
    signatures = reader.embedded_signatures
    result["signatures"] = len(signatures)
    signature = signatures[0]
    status = validate_pdf_signature(signature, ValidationContext(trust_roots=[load_cert_from_pemder(root_path)]))
    result["intact"] = bool(status.intact)
    result["valid"] = bool(status.valid)
    result["trusted"] = bool(status.trusted)
    result["coverage"] = status.coverage.name
    result["subFilter"] = str(signature.sig_object["/SubFilter"])
    result["digest"] = status.md_algorithm
    result["signedAttributes"] = [attribute["type"].native for attribute in signature.signer_info["signed_attrs"]]
    result["signer"] = status.signing_cert.subject.native.get("common_name", "")
    result["certificates"] = len(signature.signed_data["certificates"])

pdf = pikepdf.open(path, password=password or "")
form = pdf.Root.get("/AcroForm")
result["sigFlags"] = int(form.get("/SigFlags", 0)) if form is not None else 0
fields = list(form.Fields) if form is not None else []
field = fields[0]
result["field"] = {
    "type": str(field.get("/FT")),
    "flags": int(field.get("/F", 0)),
    "rect": [float(value) for value in field.Rect],
    "appearance": "/AP" in field and "/N" in field.AP,
    "description": str(field.get("/TU", "")),
    "onPage": any(annotation.objgen == field.objgen for annotation in pdf.pages[0].get("/Annots", [])),
}
tree = pdf.Root.get("/StructTreeRoot")
if tree is not None and "/StructParent" in field:
    key = int(field.StructParent)
    element = pikepdf.NumberTree(tree.ParentTree)[key]
    result["element"] = {
        "type": str(element.S),
        "alt": str(element.get("/Alt", "")),
        "refersToField": element.K.Obj.objgen == field.objgen,
        "inTree": element.P.objgen == tree.objgen or element.P.P.objgen == tree.objgen,
    }
metadata = pdf.Root.get("/Metadata")
xmp = metadata.read_bytes().decode("utf-8", "replace") if metadata is not None else ""
part = re.search(r"pdfaid:part>(\d)<|pdfaid:part=\"(\d)\"", xmp)
result["pdfaPart"] = next((group for group in part.groups() if group), None) if part else None
result["outputIntents"] = len(pdf.Root.get("/OutputIntents", []))
print(json.dumps(result))
