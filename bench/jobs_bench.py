"""Durable jobs of a running `folio serve --job-dir` (make bench starts it): one job of every record
of DATA, then one one-record job per record, and synchronous renders idle and while the big job
drains (one every 100 ms, as portal users would). Prints one JSON object: documents/s of each, queue-wait p50/p95 of the small jobs, and the
synchronous renders' median latency idle and while jobs drain.

    python3 bench/jobs_bench.py http://127.0.0.1:PORT DATA.jsonl TEMPLATE
"""
import http.client
import json
import statistics
import sys
import time
import urllib.parse

base, data_path, template = sys.argv[1], sys.argv[2], sys.argv[3]
address = urllib.parse.urlparse(base)
records = [line for line in open(data_path, "rb").read().split(b"\n") if line.strip()]


def connection():
    return http.client.HTTPConnection(address.hostname, address.port, timeout=120)


def request(conn, method, path, body=None, content_type=None):
    headers = {"Content-Type": content_type} if content_type else {}
    conn.request(method, path, body=body, headers=headers)
    answer = conn.getresponse()
    return answer.status, answer.read()


def sync_render(conn):
    start = time.perf_counter()
    status, _ = request(conn, "POST", f"/v1/templates/{template}/render?format=pdf", records[0], "application/json")
    assert status == 200, status
    return time.perf_counter() - start


def submit(conn, body):
    status, answer = request(conn, "POST", f"/v1/jobs?template={template}", body, "application/x-ndjson")
    assert status == 202, (status, answer[:300])
    return json.loads(answer)["id"]


def job(conn, job_id):
    status, answer = request(conn, "GET", f"/v1/jobs/{job_id}")
    assert status == 200, status
    return json.loads(answer)


sync = connection()
for _ in range(3):
    sync_render(sync)
idle = []
for _ in range(30):
    idle.append(sync_render(sync))
    time.sleep(0.1)

control = connection()


def run_big_job(during=None):
    """Submits one job of every record and waits for it, calling `during` while it runs; (documents/s, job)."""
    start = time.perf_counter()
    big = submit(control, b"\n".join(records) + b"\n")
    while True:
        if during:
            during()
        else:
            time.sleep(0.2)
        state = job(control, big)
        if state["state"] in ("done", "failed", "cancelled"):
            return state["written"] / (time.perf_counter() - start), state


# One job of every record alone, then another with a synchronous render every 100 ms while it drains.
big_rate, _ = run_big_job()
draining = []


def one_render():
    draining.append(sync_render(sync))
    time.sleep(0.1)


run_big_job(one_render)

# One one-record job per record, all submitted, then waited for in the order they were submitted
# (the order they are claimed in): the oldest unfinished one asked about every 50 ms, as a client
# waiting for all of them would. (Asking about every unfinished job every 50 ms, as this did first,
# is up to 1,000 requests each 50 ms: a load of its own, which the server answers before it renders
# jobs, since job renders run at a lower CPU priority than the server.)
start = time.perf_counter()
ids = [submit(control, line + b"\n") for line in records]
waits = []
written = 0
for job_id in ids:
    while True:
        state = job(control, job_id)
        if state["state"] in ("done", "failed", "cancelled"):
            waits.append(state["waited"] or 0)
            written += state["written"]
            break
        time.sleep(0.05)
small_seconds = time.perf_counter() - start
waits.sort()

print(json.dumps({
    "oneJobDocumentsPerSecond": big_rate,
    "smallJobsDocumentsPerSecond": written / small_seconds,
    "smallJobs": len(ids),
    "queueWaitP50": waits[len(waits) // 2],
    "queueWaitP95": waits[min(len(waits) - 1, int(len(waits) * 0.95))],
    "syncIdleMedian": statistics.median(idle),
    "syncDrainingMedian": statistics.median(draining),
    "syncDrainingCount": len(draining),
}))
