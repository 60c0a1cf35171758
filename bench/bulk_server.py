#!/usr/bin/env python3
"""A FHIR Bulk Data server on loopback for `make bench` (FetchBenchmark): it generates an export of
PATIENTS patients (a Patient and four Observations each, in files of at most 10,000 resources) once
into DIR, then answers `Patient/$export` (202 and a status URL), the status (the manifest, at once)
and the files (sent by the kernel, sendfile), and takes DocumentReferences posted back (counted).
It prints its port on the first line of standard output. Usage: bulk_server.py DIR PATIENTS"""
import http.server
import json
import os
import socketserver
import sys

folder, patients = sys.argv[1], int(sys.argv[2])
os.makedirs(folder, exist_ok=True)
PER_FILE = 10_000


def generate():
    stamp = os.path.join(folder, f".generated-{patients}")
    if os.path.exists(stamp):
        return
    def write(kind, lines):
        for start in range(0, len(lines), PER_FILE):
            with open(os.path.join(folder, f"{kind}-{start // PER_FILE + 1}.ndjson"), "w") as out:
                out.write("".join(lines[start:start + PER_FILE]))
    people, readings = [], []
    for number in range(patients):
        pid = f"p{number:06d}"
        people.append(json.dumps({"resourceType": "Patient", "id": pid, "name": [{"family": f"Family{number}", "given": ["Given"]}],
                                  "gender": "female" if number % 2 else "male", "birthDate": f"19{40 + number % 60}-0{1 + number % 9}-1{number % 9}"}) + "\n")
        for day in range(4):
            readings.append(json.dumps({"resourceType": "Observation", "id": f"o{number:06d}-{day}", "status": "final",
                                        "category": [{"coding": [{"system": "http://terminology.hl7.org/CodeSystem/observation-category", "code": "vital-signs"}]}],
                                        "code": {"coding": [{"system": "http://loinc.org", "code": "8867-4", "display": "Heart rate"}]},
                                        "subject": {"reference": f"Patient/{pid}"}, "effectiveDateTime": f"2026-11-{10 + day}T08:00:00Z",
                                        "valueQuantity": {"value": 60 + (number + day) % 40, "unit": "/min", "system": "http://unitsofmeasure.org", "code": "/min"}}) + "\n")
    write("Patient", people)
    write("Observation", readings)
    open(stamp, "w").close()


generate()
FILES = sorted(name for name in os.listdir(folder) if name.endswith(".ndjson"))
posted = {"count": 0}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        base = f"http://127.0.0.1:{self.server.server_address[1]}/fhir"
        path = self.path.split("?")[0]
        if path in ("/fhir/Patient/$export",):
            return self.reply(202, headers=[("Content-Location", f"{base}/status/1")])
        if path == "/fhir/status/1":
            output = [{"type": name.split("-")[0], "url": f"{base}/files/{name}",
                       "count": sum(1 for _ in open(os.path.join(folder, name)))} for name in FILES]
            manifest = {"transactionTime": "2026-11-16T00:00:00Z", "request": f"{base}/Patient/$export",
                        "requiresAccessToken": False, "output": output, "error": []}
            return self.reply(200, json.dumps(manifest).encode(), [("Content-Type", "application/json")])
        if path == "/fhir/metadata":
            statement = {"resourceType": "CapabilityStatement", "rest": [{"mode": "server", "resource": [
                {"type": "DocumentReference", "conditionalCreate": True, "conditionalUpdate": True}]}]}
            return self.reply(200, json.dumps(statement).encode(), [("Content-Type", "application/fhir+json")])
        if path.startswith("/fhir/files/"):
            name = os.path.basename(path)
            if name not in FILES:
                return self.reply(404)
            full = os.path.join(folder, name)
            size = os.path.getsize(full)
            self.send_response(200)
            self.send_header("Content-Type", "application/fhir+ndjson")
            self.send_header("Content-Length", str(size))
            self.end_headers()
            with open(full, "rb") as source:
                os.sendfile(self.wfile.fileno(), source.fileno(), 0, size)
            return
        if path == "/fhir/posted":
            return self.reply(200, str(posted["count"]).encode())
        self.reply(404)

    def do_POST(self):
        if self.path.startswith("/fhir/Patient/$export"):
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            return self.do_GET()
        self.do_PUT()

    def do_PUT(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path.startswith("/fhir/DocumentReference"):
            posted["count"] += 1
            return self.reply(201, headers=[("Location", f"/fhir/DocumentReference/{posted['count']}/_history/1")])
        self.reply(404)

    def do_DELETE(self):
        self.reply(202)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
