"""
Sends every catalogued request (cases.py) to the FastAPI oracle (oracle_app.py) in-process and writes the
exact status and body of each answer to test/golden/<group>.json. Run through `npm run golden:generate`.
"""

import json
import sys
from pathlib import Path

from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))
from cases import DIFFERENCES, GROUPS  # noqa: E402
from oracle_app import app  # noqa: E402

# Any value works for the oracle (it validates, then answers a stub); the golden test uses real ids.
PLACEHOLDERS = {
    "{campaign_id}": "c0ffee00-0000-4000-8000-000000000001",
    "{target_id}": "c0ffee00-0000-4000-8000-000000000002",
    "{blacklist_id}": "c0ffee00-0000-4000-8000-000000000003",
    "{friendly_id}": "intake",
    "{delivery_id}": "c0ffee00-0000-4000-8000-000000000004",
}

OUT = Path(__file__).resolve().parents[2] / "test" / "golden"


def send(client: TestClient, c: dict) -> dict:
    url = c["path"]
    for placeholder, value in PLACEHOLDERS.items():
        url = url.replace(placeholder, value)
    if "query" in c:
        url += "?" + c["query"]
    headers = {}
    content = None
    if "body" in c:
        headers["content-type"] = c["content_type"]
        content = c["body"].encode("utf-8")
    response = client.request(c["method"], url, content=content, headers=headers)
    return {"status": response.status_code, "body": response.text}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    # A crash of FastAPI itself is recorded as the 500 it answers, not raised here.
    client = TestClient(app, raise_server_exceptions=False)
    names = set()
    for group, build in GROUPS.items():
        entries = []
        for c in build():
            if c["name"] in names:
                raise SystemExit(f"duplicate case name: {c['name']}")
            names.add(c["name"])
            entry = {**c, "fastapi": send(client, c)}
            if c["name"] in DIFFERENCES:
                entry["service_differs"] = DIFFERENCES[c["name"]]
            entries.append(entry)
        path = OUT / f"{group}.json"
        path.write_text(json.dumps(entries, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{path.relative_to(OUT.parents[1])}: {len(entries)} cases")
    unknown = set(DIFFERENCES) - names
    if unknown:
        raise SystemExit(f"DIFFERENCES names unknown cases: {sorted(unknown)}")


if __name__ == "__main__":
    main()
