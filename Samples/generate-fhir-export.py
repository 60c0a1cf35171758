#!/usr/bin/env python3
# Generates Samples/fhir-export (run from that folder): a FHIR R4 Bulk Data export of four patients for the week of 2026-11-09.
import json, random
random.seed(7)
patients = [
  ("pat-rivera", "Ana", "Rivera", "female", "1954-03-02", "MRN-104233", "lb", "mg/dL"),
  ("pat-okafor", "Chidi", "Okafor", "male", "1948-11-20", "MRN-104250", "kg", "mmol/L"),
  ("pat-lindqvist", "Greta", "Lindqvist", "female", "1961-07-14", "MRN-104318", "kg", "mg/dL"),
  ("pat-haddad", "Samir", "Haddad", "male", "1972-01-30", "MRN-104402", "lb", "mg/dL"),
]
P, O, M = [], [], []
def q(value, unit, code): return {"value": value, "unit": unit, "system": "http://unitsofmeasure.org", "code": code}
def coding(code, display): return {"coding": [{"system": "http://loinc.org", "code": code, "display": display}], "text": display}
VS = [{"coding": [{"system": "http://terminology.hl7.org/CodeSystem/observation-category", "code": "vital-signs"}]}]
n = 0
def obs(pid, code, display, when, value=None, status="final", **extra):
  global n; n += 1
  r = {"resourceType": "Observation", "id": f"obs-{n:05d}", "status": status, "category": VS, "code": coding(code, display),
       "subject": {"reference": f"Patient/{pid}"}, "effectiveDateTime": when}
  if value is not None: r["valueQuantity"] = value
  r.update(extra); O.append(r); return r
days = [f"2026-11-{d:02d}" for d in range(9, 16)]
for index, (pid, given, family, gender, born, mrn, weightUnit, glucoseUnit) in enumerate(patients):
  P.append({"resourceType": "Patient", "id": pid, "meta": {"versionId": "1"},
    "identifier": [{"type": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/v2-0203", "code": "MR"}]},
                    "system": "urn:oid:2.16.840.1.113883.19.5", "value": mrn}],
    "name": [{"use": "official", "family": family, "given": [given]}], "gender": gender, "birthDate": born})
  weight = 70 + index * 9.5
  for d, day in enumerate(days):
    for hour in (8, 14, 21):
      if index == 2 and d == 3: continue  # no heart rate on one day: a gap, not a zero
      obs(pid, "8867-4", "Heart rate", f"{day}T{hour:02d}:{random.randint(0,59):02d}:00-05:00", q(random.randint(62, 96), "beats/minute", "/min"))
    sys, dia = random.randint(118, 148), random.randint(72, 94)
    bp = obs(pid, "85354-9", "Blood pressure panel", f"{day}T09:10:00-05:00")
    bp["component"] = [{"code": coding("8480-6", "Systolic blood pressure"), "valueQuantity": q(sys, "mmHg", "mm[Hg]")},
                       {"code": coding("8462-4", "Diastolic blood pressure"), "valueQuantity": q(dia, "mmHg", "mm[Hg]")}]
    w = weight + random.uniform(-0.6, 0.6)
    obs(pid, "29463-7", "Body weight", f"{day}T07:30:00-05:00",
        q(round(w / 0.45359237, 1), "lb", "[lb_av]") if weightUnit == "lb" else q(round(w, 1), "kg", "kg"))
    g = random.randint(95, 190)
    obs(pid, "2339-0", "Glucose", f"{day}T07:45:00-05:00",
        q(round(g / 18.0156, 1), "mmol/L", "mmol/L") if glucoseUnit == "mmol/L" else q(g, "mg/dL", "mg/dL"))
    if index == 1 and d == 5:
      obs(pid, "55423-8", "Number of steps", day, None, dataAbsentReason={"coding": [{"system": "http://terminology.hl7.org/CodeSystem/data-absent-reason", "code": "not-performed"}]})
    else:
      obs(pid, "55423-8", "Number of steps", day, q(random.randint(2500, 9800), "steps", "{steps}"))
    obs(pid, "59408-5", "Oxygen saturation", f"{day}T09:12:00-05:00", q(random.randint(93, 99), "%", "%"))
    obs(pid, "8310-5", "Body temperature", f"{day}T20:00:00-05:00", q(round(random.uniform(97.5, 99.4), 1), "degF", "[degF]"))
    obs(pid, "72514-3", "Pain severity", f"{day}T20:05:00-05:00", None, valueInteger=random.randint(0, 6))
    for hour in (8, 20):
      status = "completed" if random.random() > 0.2 else "not-done"
      M.append({"resourceType": "MedicationAdministration", "id": f"ma-{len(M)+1:05d}", "status": status,
        "medicationCodeableConcept": {"coding": [{"system": "http://www.nlm.nih.gov/research/umls/rxnorm", "code": "314076",
          "display": "Lisinopril 10 MG Oral Tablet"}], "text": "Lisinopril 10 mg tablet"},
        "subject": {"reference": f"Patient/{pid}"}, "effectiveDateTime": f"{day}T{hour:02d}:00:00-05:00"})
  # A reading entered in error (left out) and a corrected one that replaces the reading it amends.
  obs(pid, "8867-4", "Heart rate", "2026-11-12T03:00:00Z", q(212, "beats/minute", "/min"), status="entered-in-error")
  first = next(r for r in O if r["subject"]["reference"] == f"Patient/{pid}" and r["code"]["coding"][0]["code"] == "2339-0")
  first["identifier"] = [{"system": "urn:lab:riverside", "value": f"{pid}-glu-1"}]
  corrected = json.loads(json.dumps(first)); corrected["id"] = first["id"] + "-c"; corrected["status"] = "corrected"
  O.append(corrected)
open("Patient.ndjson", "w").write("".join(json.dumps(r) + "\n" for r in P))
open("Observation.ndjson", "w").write("".join(json.dumps(r) + "\n" for r in O))
open("MedicationAdministration.ndjson", "w").write("".join(json.dumps(r) + "\n" for r in M))
