"""Validates FHIR R4 (4.0.1) JSON resources written by `folio batch --emit fhir`.

Each file is parsed by fhir.resources 5.1.1 (the R4 models: unknown elements, wrong types and missing
required elements are errors), then checked against the R4 JSON schema's patterns and value sets for
the elements the models do not check (instant, dateTime, date, base64Binary, codes). A transaction
Bundle must have a request on every entry and a unique fullUrl. Prints one line per problem and
exits 1 if there is any; prints "ok N" otherwise.
"""
import json, re, sys

from fhir.resources.bundle import Bundle
from fhir.resources.documentreference import DocumentReference

INSTANT = re.compile(r"^([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)-(0[1-9]|1[0-2])-(0[1-9]|[1-2][0-9]|3[0-1])T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?(Z|(\+|-)((0[0-9]|1[0-3]):[0-5][0-9]|14:00))$")
DATETIME = re.compile(r"^([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)(-(0[1-9]|1[0-2])(-(0[1-9]|[1-2][0-9]|3[0-1])(T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?(Z|(\+|-)((0[0-9]|1[0-3]):[0-5][0-9]|14:00)))?)?)?$")
BASE64 = re.compile(r"^(\s*([0-9a-zA-Z\+/=]){4}\s*)+$")
CODE = re.compile(r"^[^\s]+(\s[^\s]+)*$")
ID = re.compile(r"^[A-Za-z0-9\-\.]{1,64}$")
problems = []

def check_reference(where, doc):
    def need(condition, what):
        if not condition:
            problems.append(f"{where}: {what}")
    need(doc.get("status") in ("current", "superseded", "entered-in-error"), "status is not a DocumentReference status")
    need(doc.get("docStatus") in (None, "preliminary", "final", "amended", "entered-in-error"), "docStatus")
    need(INSTANT.match(doc.get("date", "")), "date is not an instant")
    need(doc.get("content"), "no content")
    for index, content in enumerate(doc.get("content", [])):
        attachment = content.get("attachment", {})
        need(CODE.match(attachment.get("contentType", "")), f"content[{index}].attachment.contentType")
        need(BASE64.match(attachment.get("hash", "")), f"content[{index}].attachment.hash is not base64")
        need(isinstance(attachment.get("size"), int) and attachment["size"] >= 0, f"content[{index}].attachment.size")
        need(DATETIME.match(attachment.get("creation", "")), f"content[{index}].attachment.creation")
    reference = doc.get("subject", {}).get("reference", "")
    need(re.match(r"^Patient/[A-Za-z0-9\-\.]{1,64}$", reference), "subject is not a Patient reference")
    period = doc.get("context", {}).get("period", {})
    need(DATETIME.match(period.get("start", "")) and DATETIME.match(period.get("end", "")), "context.period")
    for coding in doc.get("type", {}).get("coding", []):
        need(CODE.match(coding.get("code", "")), "type.coding.code")

for path in sys.argv[1:]:
    data = json.load(open(path))
    try:
        if data.get("resourceType") == "Bundle":
            Bundle(data)
            if data.get("type") != "transaction":
                problems.append(f"{path}: Bundle.type is {data.get('type')}, not transaction")
            urls = [entry.get("fullUrl") for entry in data.get("entry", [])]
            if len(set(urls)) != len(urls):
                problems.append(f"{path}: fullUrls are not unique")
            for index, entry in enumerate(data.get("entry", [])):
                request = entry.get("request", {})
                if request.get("method") not in ("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH") or not request.get("url"):
                    problems.append(f"{path}: entry[{index}].request")
                DocumentReference(entry["resource"])
                check_reference(f"{path} entry[{index}]", entry["resource"])
        else:
            DocumentReference(data)
            check_reference(path, data)
    except Exception as error:  # the models' validation errors
        problems.append(f"{path}: {str(error).splitlines()[0]} {' '.join(str(error).split())[:300]}")

for problem in problems:
    print(problem)
if problems:
    sys.exit(1)
print("ok", len(sys.argv) - 1)
