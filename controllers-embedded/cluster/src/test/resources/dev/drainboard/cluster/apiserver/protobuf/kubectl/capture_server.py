"""Records the request bodies kubectl sends, to make the *.pb fixtures beside this file.

Usage: python3 capture_server.py PORT OUT_DIR, then for example
  kubectl --server http://127.0.0.1:PORT -n default create namespace demo
Each POST body lands in OUT_DIR as <resource>-<n>.pb. The matching *.json is what
`kubectl ... --dry-run=client -o json` prints for the same command (written by hand for
token.json and auth-can-i.json, which have no dry run).
"""
import http.server
import json
import os
import sys

OUT_DIR = sys.argv[2]


class Handler(http.server.BaseHTTPRequestHandler):
    def send_json(self, code, obj):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/version":
            return self.send_json(200, {"major": "1", "minor": "32", "gitVersion": "v1.32.0"})
        if path == "/api":
            return self.send_json(200, {"kind": "APIVersions", "versions": ["v1"]})
        if path == "/apis":
            return self.send_json(200, {"kind": "APIGroupList", "apiVersion": "v1", "groups": []})
        self.send_json(404, {"kind": "Status", "apiVersion": "v1", "status": "Failure", "code": 404})

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        resource = self.path.split("?")[0].rstrip("/").split("/")[-1]
        with open(os.path.join(OUT_DIR, f"{resource}-{len(os.listdir(OUT_DIR))}.pb"), "wb") as out:
            out.write(body)
        # kubectl only needs a decodable answer to report success.
        self.send_json(201, {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x"}})

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
