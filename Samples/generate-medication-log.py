#!/usr/bin/env python3
"""Writes Samples/medication-log.json: four weeks of one inpatient's medication administrations
(four medications, scheduled doses, some held or refused, insulin with its pre-dose glucose), the
data of Templates/medication-log.yaml. Seeded: the same file every run.

    python3 Samples/generate-medication-log.py > Samples/medication-log.json
    python3 Samples/generate-medication-log.py --rows 5000   # a longer log, for tests and timing
"""
import argparse
import datetime
import json
import random

MEDICATIONS = [
    # name, dose (mg or units), route, hours of the day given
    ("Metformin", 500, "oral", (8, 20)),
    ("Lisinopril", 10, "oral", (8,)),
    ("Insulin glargine", 18, "subcutaneous", (21,)),
    ("Paracetamol", 1000, "oral", (6, 12, 18)),
]


def administrations(rows, seed=7):
    rng = random.Random(seed)
    start = datetime.datetime(2026, 10, 19)
    out = []
    day = 0
    while len(out) < rows:
        for name, dose, route, hours in MEDICATIONS:
            for hour in hours:
                if len(out) >= rows:
                    break
                given = start + datetime.timedelta(days=day, hours=hour, minutes=rng.choice([0, 5, 10, 20, 35]))
                # New York: daylight time until 1 November 2026, standard time after.
                offset = "-04:00" if given < datetime.datetime(2026, 11, 1, 2) else "-05:00"
                status = rng.choices(["given", "held", "refused"], weights=[92, 4, 4])[0]
                record = {
                    "medication": name,
                    "given": given.strftime("%Y-%m-%dT%H:%M:00") + offset,
                    "dose": dose if status == "given" else 0,
                    "unit": "units" if name.startswith("Insulin") else "mg",
                    "route": route,
                    "status": status,
                    "nurse": rng.choice(["A. Okafor", "M. Jensen", "L. Ortiz", "S. Haddad"]),
                }
                if name.startswith("Insulin"):
                    record["glucose"] = rng.randint(62, 240)
                out.append(record)
        day += 1
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=196)
    arguments = parser.parse_args()
    record = {
        "patient": {"id": "MRN-20418", "name": "Rosa Delgado", "ward": "4 West"},
        "period": {"start": "2026-10-19", "end": "2026-11-15"},
        "administrations": administrations(arguments.rows),
    }
    print(json.dumps(record, ensure_ascii=False))


if __name__ == "__main__":
    main()
