"""Verifies every request of a receiver's LOG with the Standard Webhooks reference library and
prints one JSON line per request: its verified payload (or the error)."""
import json
import sys

from standardwebhooks.webhooks import Webhook

secret, log = sys.argv[1], sys.argv[2]
hook = Webhook(secret)
for line in open(log, encoding="utf-8"):
    request = json.loads(line)
    try:
        payload = hook.verify(request["body"], request["headers"])
        print(json.dumps({"verified": payload, "id": request["headers"]["webhook-id"],
                          "traceparent": request["headers"].get("traceparent")}))
    except Exception as error:  # noqa: BLE001 - the test reads the failure
        print(json.dumps({"error": str(error)}))
