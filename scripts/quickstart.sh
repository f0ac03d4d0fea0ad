#!/usr/bin/env bash
# Install mnemon into ./.venv and run a real end-to-end example on the embedded default store and the local
# offline embedding model: remember with diff, recall with signals, ingest the example vault, build a context pack.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e .
# an editable install leaves the package uncompiled; precompiling spares every CLI call ~70 ms when bytecode is
# not written on the fly (PYTHONDONTWRITEBYTECODE)
.venv/bin/python -m compileall -q src >/dev/null
export MNEMON_HOME="${MNEMON_HOME:-$(mktemp -d)/mnemon-home}"
M=".venv/bin/mnemon --pretty"
echo "# store: $MNEMON_HOME (embedding provider: local e5, offline)" >&2
$M remember "Chose Qdrant as the vector database because it handles filtering well" --cat decision --imp 5 --entities "Qdrant,Milvus"
$M remember "Qdrant runs in Docker on the dev box" --cat fact
$M remember "Qdrant runs in Docker on the dev box" --cat fact   # exact repeat: skipped, nothing changes
$M recall "why did we choose Qdrant" --verbose
$M ingest --vault examples/vault
$M retrieve --prompt "what is late with the battery supplier" --budget 1200 --max-items 5
$M status
# the same memory over HTTP: the API (and the graph workbench page at the printed url) until stopped
.venv/bin/mnemon serve --port 0 > "$MNEMON_HOME/serve.json" &
SERVE_PID=$!
for _ in $(seq 50); do [ -s "$MNEMON_HOME/serve.json" ] && break; sleep 0.2; done
.venv/bin/python - "$MNEMON_HOME/serve.json" <<'PY'
import json, sys, urllib.request
url = json.load(open(sys.argv[1]))["url"]
print(f"# mnemon serve at {url} (workbench page); GET {url}api/graph?max_nodes=5:", file=sys.stderr)
graph = json.load(urllib.request.urlopen(url + "api/graph?max_nodes=5"))
print(json.dumps({"nodes": [n["title"] for n in graph["nodes"]], "links": graph["stats"]["links"]}, indent=2))
PY
kill "$SERVE_PID"
# the first call left a resident process that answered the later ones (15 idle minutes; `mnemon daemon stop`)
$M daemon status
