#!/usr/bin/env bash
# Make Debian's Graphviz `dot` available for the graph export tests (tests/render/test_graph_export.py, which read
# the DOT files `mnemon graph --format dot` writes with the real parser). Idempotent, and never fails its caller: when
# Graphviz cannot be installed it says why and exits 0, and those tests then skip with that reason.
set -u
if command -v dot >/dev/null 2>&1; then
  echo "graphviz.sh: dot present ($(dot -V 2>&1 | head -n 1))"
  exit 0
fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "graphviz.sh: dot missing and cannot be installed here (needs root and apt-get); its tests will skip"
  exit 0
fi
echo "graphviz.sh: installing graphviz with apt-get"
if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz >/dev/null 2>&1; then
  # the package lists may be missing on a fresh machine: fetch them once, then try again
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1 &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz >/dev/null 2>&1 ||
    { echo "graphviz.sh: apt-get install graphviz failed; its tests will skip"; exit 0; }
fi
echo "graphviz.sh: installed $(dot -V 2>&1 | head -n 1)"
exit 0
