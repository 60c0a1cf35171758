"""Prints, as JSON, what a PDF's reader finds of its attached files (pikepdf): the XMP's PDF/A part and
conformance, the files its XMP lists (and whether it describes their schema for PDF/A), and each embedded file's name, relationship, MIME type, description, size, dates, whether
its /CheckSum is the MD5 of its bytes, whether the catalog's /AF lists it, the SHA-256 of its bytes and
the bytes as text (UTF-8, replaced where they are not)."""
import hashlib
import json
import re
import sys

import pikepdf

pdf = pikepdf.open(sys.argv[1])
with pdf.open_metadata() as xmp:
    found = {"pdfaPart": xmp.get("pdfaid:part"), "pdfaConformance": xmp.get("pdfaid:conformance"), "files": []}
associated = [spec.objgen for spec in pdf.Root.get("/AF", [])]
packet = pdf.Root.Metadata.read_bytes().decode("utf-8") if "/Metadata" in pdf.Root else ""
listed = re.search(r"<folioaf:files><rdf:Bag>(.*?)</rdf:Bag></folioaf:files>", packet, re.S)
found["xmpFiles"] = re.findall(r"<rdf:li>(.*?)</rdf:li>", listed.group(1)) if listed else []
found["xmpDescribesSchema"] = "<pdfaSchema:prefix>folioaf</pdfaSchema:prefix>" in packet
for name, attachment in pdf.attachments.items():
    spec = attachment.obj
    embedded = attachment.get_file()
    data = embedded.read_bytes()
    params = embedded.obj.get("/Params", {})
    found["files"].append({
        "name": name,
        "relationship": str(spec.get("/AFRelationship", "")),
        "mimeType": embedded.mime_type,
        "description": str(spec.get("/Desc", "")),
        "size": int(params.get("/Size", -1)),
        "modified": str(params.get("/ModDate", "")),
        "checksumMatches": bytes(params.get("/CheckSum", b"")) == hashlib.md5(data).digest(),
        "inAF": spec.objgen in associated,
        "sha256": hashlib.sha256(data).hexdigest(),
        "text": data.decode("utf-8", "replace"),
    })
print(json.dumps(found))
