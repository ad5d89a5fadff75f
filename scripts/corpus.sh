#!/usr/bin/env bash
# Behaviour corpus of the CLI: runs every case of tests/corpus/queries.txt through friction-lab and
# records (`record`) or compares (`check`, the default) stdout, stderr, exit status and the SVG a case
# writes. Refactors that must not change behaviour are checked with it: `check` prints each case whose
# output differs and exits 1 if any does. The only lines left out of the comparison are the measured
# wall times (`wall_time,…` in stick-slip metrics), which differ from run to run.
#
#   bash scripts/corpus.sh [check|record] [PATH-TO-friction-lab]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MODE="${1:-check}"
BIN="${2:-}"
if [ -z "$BIN" ]; then
  (cd "$ROOT" && cargo build --release --locked -q -p friction-cli)
  BIN="$ROOT/target/release/friction-lab"
fi
# cases name fixture files relative to the repository root
cd "$ROOT"
CASES="$ROOT/tests/corpus/queries.txt"
EXPECTED="$ROOT/tests/corpus/expected"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
[ "$MODE" = record ] && { rm -rf "$EXPECTED"; mkdir -p "$EXPECTED"; }

# the volatile lines, dropped from both sides
scrub() { grep -Ev '(^|,)wall_time,' || true; }

i=0
failed=0
while IFS= read -r line; do
  case "$line" in '#'*) continue ;; esac
  i=$((i + 1))
  id="$(printf '%03d' "$i")"
  args=()
  svg=""
  if [ "$line" != "<no arguments>" ]; then
    while IFS= read -r a; do
      if [ "$a" = "@SVG" ]; then svg="$WORK/$id.svg"; args+=("$svg"); else args+=("$a"); fi
    done < <(printf '%s\n' "$line" | sed 's/ ;; /\n/g')
  fi
  set +e
  "$BIN" "${args[@]}" > "$WORK/$id.out" 2> "$WORK/$id.err" < /dev/null
  echo "$?" > "$WORK/$id.code"
  set -e
  scrub < "$WORK/$id.out" > "$WORK/$id.out.s"
  {
    echo "case: $line"
    echo "exit: $(cat "$WORK/$id.code")"
    echo "stderr:"
    cat "$WORK/$id.err"
  } > "$WORK/$id.meta"
  if [ "$MODE" = record ]; then
    gzip -9n < "$WORK/$id.out.s" > "$EXPECTED/$id.out.gz"
    cp "$WORK/$id.meta" "$EXPECTED/$id.meta"
    [ -n "$svg" ] && gzip -9n < "$svg" > "$EXPECTED/$id.svg.gz"
  else
    bad=""
    cmp -s "$WORK/$id.meta" "$EXPECTED/$id.meta" || bad="$bad status/stderr"
    cmp -s "$WORK/$id.out.s" <(gunzip -c "$EXPECTED/$id.out.gz") || bad="$bad stdout"
    if [ -n "$svg" ]; then cmp -s "$svg" <(gunzip -c "$EXPECTED/$id.svg.gz") || bad="$bad svg"; fi
    if [ -n "$bad" ]; then
      failed=$((failed + 1))
      echo "DIFFERS ($bad ): case $id: $line"
    fi
  fi
done < "$CASES"

if [ "$MODE" = record ]; then
  echo "recorded $i cases in ${EXPECTED#"$ROOT"/} ($(du -sh "$EXPECTED" | cut -f1))"
else
  echo "corpus: $((i - failed)) passed, $failed failed"
  [ "$failed" = 0 ]
fi
