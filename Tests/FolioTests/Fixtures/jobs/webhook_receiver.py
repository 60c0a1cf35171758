"""A webhook receiver for folio serve's job tests: answers 500 to the first FAILURES requests, then
204, and writes every request (headers and body) as a JSON line to LOG. Prints its port."""
import http.server
import json
import sys

failures = int(sys.argv[1])
log = sys.argv[2]
seen = 0


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        global seen
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        seen += 1
        with open(log, "a", encoding="utf-8") as out:
            out.write(json.dumps({"headers": {k.lower(): v for k, v in self.headers.items()}, "body": body.decode()}) + "\n")
        self.send_response(500 if seen <= failures else 204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
print(server.server_address[1], flush=True)
server.serve_forever()
