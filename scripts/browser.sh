#!/usr/bin/env bash
# Make Debian Chromium available at /usr/bin/chromium for the browser tests (tests/browser/).
# Idempotent, and never fails its caller: when Chromium cannot be installed it says why and exits 0,
# and the browser tests then skip with that reason.
set -u
CHROMIUM=/usr/bin/chromium
if [ -x "$CHROMIUM" ]; then
  echo "browser.sh: $CHROMIUM present ($("$CHROMIUM" --version 2>/dev/null | head -n 1))"
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  echo "browser.sh: $CHROMIUM missing and not running as root; browser tests will skip"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "browser.sh: $CHROMIUM missing and apt-get not found; browser tests will skip"
  exit 0
fi
echo "browser.sh: installing chromium with apt-get"
if ! DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1; then
  echo "browser.sh: apt-get update failed; browser tests will skip"
  exit 0
fi
if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1; then
  echo "browser.sh: apt-get install chromium failed; browser tests will skip"
  exit 0
fi
if [ -x "$CHROMIUM" ]; then
  echo "browser.sh: installed $("$CHROMIUM" --version 2>/dev/null | head -n 1)"
else
  echo "browser.sh: chromium package installed but $CHROMIUM is missing; browser tests will skip"
fi
exit 0
