"""Validates JSON documents against one of Folio's schemas with Python's jsonschema (2020-12).

usage: schema_check.py SCHEMA.json CASES.jsonl
Each line of CASES is {"id": ..., "document": ...}; prints one line per case: id, then
"valid" or "invalid" and the first error's place.
"""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1], encoding="utf-8"))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
with open(sys.argv[2], encoding="utf-8") as cases:
    for line in cases:
        case = json.loads(line)
        error = next(iter(validator.iter_errors(case["document"])), None)
        if error is None:
            print(case["id"], "valid")
        else:
            print(case["id"], "invalid", "/".join(map(str, error.absolute_path)) or "(top)")
