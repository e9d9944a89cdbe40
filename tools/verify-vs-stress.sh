#!/usr/bin/env bash
# tools/verify-vs-stress.sh BIN PROTOCOL [EPISODES] - which table cells
# `gpucoh verify` (default bounds: 2 L1s x 1 line x 2 values, 2 operations per
# L1; others in VERIFY_ARGS, e.g. VERIFY_ARGS="--inflight 2") reaches and `gpucoh stress` (EPISODES episodes, default 20000, small
# caches, observers on) does, and which only one of them does. VERIFY_COVERAGE=FILE
# takes verify's side from a coverage file written before (`verify --coverage FILE`,
# its arguments then being whatever that run was given) instead of running it. Both write the
# same coverage format (coh_cov_print: "coverage.P.CTRL.STATE.EVENT COUNT");
# a cell counts as reached when it fired at least once.
set -euo pipefail
read -r -a verify_args <<<"${VERIFY_ARGS:-}"
bin=$1
proto=$2
episodes=${3:-20000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${VERIFY_COVERAGE:-}" ]; then
    cp "$VERIFY_COVERAGE" "$tmp/verify"
else
    "$bin" verify --protocol "$proto" "${verify_args[@]}" --coverage "$tmp/verify" >/dev/null
fi
"$bin" stress --protocol "$proto" --episodes "$episodes" --small-caches --check \
    --coverage "$tmp/stress" >/dev/null
reached() { awk '$2 > 0 {print $1}' "$1" | sed 's/^coverage\.//' | sort; }
reached "$tmp/verify" >"$tmp/v"
reached "$tmp/stress" >"$tmp/s"
total=$(grep -c '^coverage\.' "$tmp/verify")
both=$(comm -12 "$tmp/v" "$tmp/s" | wc -l)
echo "$proto: $total cells; verify reaches $(wc -l <"$tmp/v"), stress ($episodes episodes) $(wc -l <"$tmp/s"), both $both"
echo "  only verify reaches:"
comm -23 "$tmp/v" "$tmp/s" | sed 's/^/    /'
echo "  only stress reaches:"
comm -13 "$tmp/v" "$tmp/s" | sed 's/^/    /'
