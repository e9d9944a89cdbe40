# Sourced by tests/cli/verify*.sh: what they share, and the check every seeded
# bug of `gpucoh verify` must pass (docs/verify.md: caught with a counterexample
# shorter than 30 steps, which --replay reproduces). The sourcing script defines
# bin; this defines fail, a scratch folder tmp (removed on exit), a counter n
# the script counts its checks in, caught and field.
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

# field TEXT WORD: the number before WORD in TEXT ("1596" of "... 1596 states ...")
field() { echo "$1" | sed -nE "s/.* ([0-9]+) $2.*/\1/p" | head -1; }

#
# caught NAME CEX KIND PATTERN [ARG...]: `verify --protocol NAME ARG... --cex CEX`
# exits 1 with the line "verify NAME: VIOLATION: PATTERN" (an extended regular
# expression) and a shortest sequence of fewer than 30 steps, and
# `verify --replay CEX` exits 1 with "VIOLATION after <steps> steps: KIND".
# Sets steps, and out to the replay's output (its trace) for further checks.
caught() {
    local name=$1 cex=$2 kind=$3 pattern=$4
    shift 4
    out=$("$bin" verify --protocol "$name" "$@" --cex "$cex" 2>&1)
    [ $? -eq 1 ] || { echo "$out"; fail "$name: expected exit 1"; }
    echo "$out" | grep -qE "^verify $name: VIOLATION: $pattern" ||
        { echo "$out"; fail "$name: no violation matching '$pattern'"; }
    steps=$(echo "$out" | sed -nE 's/.*shortest event sequence \(([0-9]+) steps\).*/\1/p')
    [ -n "$steps" ] && [ "$steps" -lt 30 ] || fail "$name: counterexample of '$steps' steps"
    out=$("$bin" verify --replay "$cex" 2>&1)
    [ $? -eq 1 ] || { echo "$out"; fail "$name replay: expected exit 1"; }
    echo "$out" | grep -q "^replay $name: VIOLATION after $steps steps: $kind" ||
        { echo "$out"; fail "$name replay did not reproduce"; }
}
