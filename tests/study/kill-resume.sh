#!/usr/bin/env bash
# A study killed with kill -9 at staggered moments (1.5, 4 and 8 s) and resumed writes the bytes
# of an uninterrupted run (docs/games.md, "Studies"): run by hand, e.g. on the native smoke specs.
#   bash tests/study/kill-resume.sh "python -m evomcts" docs/study/hex5-smoke.ron
set -u
EVOMCTS=$1; spec=$2; name=$(basename "$spec" .ron)
W=$(mktemp -d /tmp/evomcts-kill-resume.XXXXXX)
$EVOMCTS study "$spec" --out "$W/ref" --quiet >/dev/null
status=0
for delay in 1.5 4 8; do
  out=$W/killed-$delay
  $EVOMCTS study "$spec" --out "$out" --quiet >/dev/null 2>&1 & pid=$!
  sleep "$delay"; kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  $EVOMCTS study "$spec" --out "$out" --resume --quiet >/dev/null || status=1
  if diff -r "$W/ref" "$out" >/dev/null; then
    echo "$name killed at ${delay} s: resumed byte for byte"
  else
    echo "$name killed at ${delay} s: differs"; diff -rq "$W/ref" "$out" | head -5; status=1
  fi
done
rm -rf "$W"
exit $status
