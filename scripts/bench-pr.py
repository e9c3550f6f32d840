#!/usr/bin/env python3
"""A loopback GitHub with a fixed latency per request, for scripts/bench-pr.sh.

Serves one generated pull request (a ReviewGate result artifact with N
findings), its review threads, and the disposition protocol's endpoints
(actor, permission, comments, statuses), keeping what is posted in memory.
Every request sleeps LATENCY seconds before its answer; requests are served
on threads, so requests sent together overlap. ETag / If-None-Match is
honoured (304) like GitHub's REST API.

Connections that carried at least one counted request are counted too: a
client that keeps its connections alive opens at most as many as it has
requests in flight at once.

The dependent rounds of a run are counted from the server's own clock: each
request's start (its head read) and end (its answer written) are kept, and
the rounds are the length of the longest chain of requests in which each
one started after the previous one's answer was sent. That is the number of
round trips the client's protocol needs, whatever its own time between them
costs; requests sent together count once.

Control paths (no latency, not counted): GET /__stats (and reset),
POST /__fail_posts/1 or /0 (comment posts answer 502: fills the outbox).

usage: bench-pr.py PORT_FILE LATENCY_MS FINDINGS RESULT_OUT
"""
import hashlib, heapq, io, json, sys, threading, time, zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

REPO, PR, WORKFLOW, ACTOR = "bench/app", 7, "reviewgate.yml", "bench-user"
HEAD = "1234567890abcdef1234567890abcdef12345678"
ARTIFACT = 5001

port_file, latency, findings, result_out = sys.argv[1], int(sys.argv[2]) / 1000.0, int(sys.argv[3]), sys.argv[4]


def finding(i):
    fp = f"defect:src.f{i}.rs:bench"
    return {"id": f"rg_{i}", "semantic_fingerprint": fp, "disposition": "still_open", "severity": "P2",
            "confidence": 0.8, "classification": "defect", "blocking_reason": None, "path": f"src/f{i}.rs",
            "line": 10, "claim": f"Claim {i}.", "causal_evidence": None, "evidence": [], "reproduction": None,
            "suggested_fix": "Fix it.", "thread_id": None, "thread_status": "not_published",
            "thread_transition": "not_published", "thread_outdated": False, "reopening_evidence": None,
            "prior_dispositions": []}


RESULT = json.dumps({
    "schema_version": "reviewgate-agent-result/v1",
    "scope": {"kind": "pull_request", "repository": REPO, "pull_request_number": PR},
    "status": "needs_changes", "score": 3, "reviewed_sha": HEAD, "angle_errors": [],
    "costs": {"estimated_total_usd": 0.01, "summary": None},
    "findings": [finding(i) for i in range(findings)],
}, indent=2).encode()
with open(result_out, "wb") as f:
    f.write(RESULT)
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("result.json", RESULT)
ZIP = buf.getvalue()
NAME = f"reviewgate-agent-result-{HEAD}-attempt-1"

lock = threading.Lock()
stats = {"requests": 0, "in_flight": 0, "max_in_flight": 0, "not_modified": 0, "connections": 0, "lines": [],
         "spans": []}


def dependent_rounds(spans):
    """The longest chain of (start, end) spans, each starting after the previous one ended."""
    ended, best, longest = [], 0, 0  # ended: a heap of (end, chain length) not yet passed
    for start, end in sorted(spans):
        while ended and ended[0][0] <= start:
            best = max(best, heapq.heappop(ended)[1])
        heapq.heappush(ended, (end, best + 1))
        longest = max(longest, best + 1)
    return longest
state = {"comments": [], "statuses": [], "next_id": 9000, "fail_posts": False}


def fixed(path):
    """The answer of a read-only resource, or None."""
    base = f"/repos/{REPO}"
    if path == f"{base}/pulls/{PR}":
        return {"number": PR, "state": "open", "head": {"sha": HEAD}, "base": {"repo": {"full_name": REPO}}}
    if path == f"{base}/actions/workflows/{WORKFLOW}/runs":
        return {"total_count": 1, "workflow_runs": [{"id": 77, "run_number": 3, "run_attempt": 1, "head_sha": HEAD,
                                                     "event": "pull_request", "status": "completed",
                                                     "conclusion": "failure", "created_at": "2026-01-01T00:00:00Z",
                                                     "pull_requests": [{"number": PR}],
                                                     "repository": {"full_name": REPO}}]}
    if path == f"{base}/actions/artifacts":
        return {"total_count": 1, "artifacts": [{"id": ARTIFACT, "name": NAME, "size_in_bytes": len(ZIP),
                                                 "expired": False, "workflow_run": {"id": 77, "head_sha": HEAD}}]}
    if path == "/user":
        return {"login": ACTOR}
    if path == base:
        return {"full_name": REPO, "permissions": {"admin": False, "maintain": False, "push": True,
                                                   "triage": True, "pull": True}}
    if path == f"{base}/collaborators/{ACTOR}/permission":
        return {"permission": "write", "role_name": "write"}
    return None


def page(url, items):
    """The page of items a request's per_page and page ask for (GitHub's defaults: 30, 1)."""
    query = parse_qs(urlsplit(url).query)
    per = int(query.get("per_page", ["30"])[0])
    number = int(query.get("page", ["1"])[0])
    return items[(number - 1) * per:number * per]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body leave in two writes: without TCP_NODELAY the body
    # waits for the client's delayed ACK (tens of ms per answer on
    # loopback), which would be counted as the client's time.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("x-ratelimit-remaining", "4000")
        self.end_headers()
        self.wfile.write(body)

    def json(self, value, status=200, etag=True):
        body = json.dumps(value).encode()
        tag = '"%s"' % hashlib.sha256(body).hexdigest()[:16]
        if etag and self.command == "GET" and self.headers.get("If-None-Match") == tag:
            with lock:
                stats["not_modified"] += 1
            return self.send(304, b"", [("ETag", tag)])
        headers = [("Content-Type", "application/json")] + ([("ETag", tag)] if etag else [])
        self.send(status, body, headers)

    def control(self, path):
        if path == "/__stats":
            with lock:
                out = dict(stats)
                stats.update(requests=0, max_in_flight=0, not_modified=0, connections=0, lines=[], spans=[])
            out["rounds"] = dependent_rounds(out.pop("spans"))
            self.json(out, etag=False)
            return True
        if path.startswith("/__fail_posts/"):
            state["fail_posts"] = path.endswith("/1")
            self.json({}, etag=False)
            return True
        return False

    def handle_any(self):
        start = time.monotonic()
        path = self.path.split("?")[0]
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.control(path):
            return
        with lock:
            if not getattr(self, "counted", False):
                # One handler serves one connection, request after request.
                self.counted = True
                stats["connections"] += 1
            stats["requests"] += 1
            stats["in_flight"] += 1
            stats["max_in_flight"] = max(stats["max_in_flight"], stats["in_flight"])
            stats["lines"].append(f"{self.command} {path}")
        try:
            time.sleep(latency)
            self.answer(path, body)
        finally:
            with lock:
                stats["in_flight"] -= 1
                stats["spans"].append((start, time.monotonic()))

    def answer(self, path, body):
        base = f"/repos/{REPO}"
        if self.command == "GET":
            value = fixed(path)
            if value is not None:
                return self.json(value)
            if path == f"{base}/actions/artifacts/{ARTIFACT}/zip":
                return self.send(302, b"", [("Location", f"http://127.0.0.1:{self.server.server_port}/blob/{ARTIFACT}.zip")])
            if path == f"/blob/{ARTIFACT}.zip":
                return self.send(200, ZIP, [("Content-Type", "application/zip")])
            if path == f"{base}/issues/{PR}/comments":
                return self.json(page(self.path, state["comments"]))
            if path.startswith(f"{base}/issues/comments/"):
                cid = int(path.rsplit("/", 1)[1])
                for c in state["comments"]:
                    if c["id"] == cid:
                        return self.json(c)
                return self.json({"message": "Not Found"}, 404, etag=False)
            if path == f"{base}/commits/{HEAD}/status":
                return self.json({"state": "success", "statuses": page(self.path, state["statuses"]),
                                  "total_count": len(state["statuses"])})
        if self.command == "POST":
            if path == "/graphql":
                return self.json({"data": {"repository": {"pullRequest": {"reviewThreads": {
                    "pageInfo": {"hasNextPage": False, "endCursor": None}, "nodes": []}}}}}, etag=False)
            if path == f"{base}/issues/{PR}/comments":
                if state["fail_posts"]:
                    return self.json({"message": "Bad Gateway"}, 502, etag=False)
                with lock:
                    state["next_id"] += 1
                    c = {"id": state["next_id"], "body": json.loads(body)["body"], "user": {"login": ACTOR}}
                    state["comments"].append(c)
                return self.json(c, 201, etag=False)
            if path == f"{base}/statuses/{HEAD}":
                s = json.loads(body)
                with lock:
                    state["statuses"].insert(0, {"context": s["context"], "description": s["description"],
                                                 "state": s["state"], "creator": {"login": ACTOR}})
                return self.json({"id": 1, "creator": {"login": ACTOR}}, 201, etag=False)
        if self.command == "DELETE":
            return self.send(204)
        self.json({"message": "Not Found"}, 404, etag=False)

    do_GET = do_POST = do_DELETE = handle_any


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
with open(port_file, "w") as f:
    f.write(str(server.server_port))
server.serve_forever()
