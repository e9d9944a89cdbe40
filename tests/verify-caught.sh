# Sourced by tests/cli/verify*.sh: what they share, and the check every seeded
# bug of `gpucoh verify` must pass (docs/verify.md: caught with a counterexample
# shorter than 30 steps, which --replay reproduces). The sourcing script defines
# bin; this defines fail, a scratch folder tmp (removed on exit), a counter n
# the script counts its checks in, caught, field, shape, symmetry_table, reduced_table, reaches
# and bad.
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

# field TEXT WORD: the number before WORD in TEXT ("1596" of "... 1596 states ...")
field() { echo "$1" | sed -nE "s/.* ([0-9]+) $2.*/\1/p" | head -1; }

# shape TEXT NAME: "depth D cells reached C of T" of NAME's result line in TEXT
shape() { echo "$1" | grep "^verify $2 " | sed -E 's/.*(depth [0-9]+).*(cells reached [0-9]+ of [0-9]+).*/\1 \2/'; }

# symmetry_table OVER: for each line "NAME ARGS WHOLE REDUCED ORBITS" of standard
# input (ARGS: options joined by commas), `verify --protocol NAME ARGS` with --symmetry off
# explores WHOLE states, with --symmetry on REDUCED representatives whose orbits
# add up to ORBITS ("symmetry over OVER: ", OVER a regular expression such as
# '2 L1s'), at the same depth and cells.
symmetry_table() {
    local p args whole reduced orbits off on
    while read -r p args whole reduced orbits; do
        args=${args//,--/ --} # (a comma before an option: a value may hold commas)
        off=$("$bin" verify --protocol "$p" $args --symmetry off 2>&1) || { echo "$off"; fail "$p $args off"; }
        on=$("$bin" verify --protocol "$p" $args --symmetry on 2>&1) || { echo "$on"; fail "$p $args on"; }
        [ "$(field "$off" states)" = "$whole" ] || { echo "$off"; fail "$p $args: not $whole states"; }
        [ "$(field "$on" states)" = "$reduced" ] || { echo "$on"; fail "$p $args: not $reduced representatives"; }
        echo "$on" | grep -q "^verify $p: symmetry over $1: $reduced states up to relabelling stand for $orbits states" ||
            { echo "$on"; fail "$p $args: no symmetry line with $orbits states"; }
        [ "$(shape "$off" "$p")" = "$(shape "$on" "$p")" ] ||
            fail "$p $args: depth or cells differ: '$(shape "$off" "$p")' vs '$(shape "$on" "$p")'"
        n=$((n + 1))
    done
}

# reduced_table MODE OVER: for each line "NAME ARGS WHOLE REDUCED DEPTH CELLS" of
# standard input (ARGS: options joined by commas), `verify --protocol NAME ARGS
# --symmetry MODE` alone gives REDUCED representatives whose orbits add up to
# WHOLE ("symmetry over OVER: ", OVER a regular expression), at depth DEPTH with
# CELLS cells reached: the whole search's count and shape, measured without the
# reduction.
reduced_table() {
    local p args whole reduced depth cells out
    while read -r p args whole reduced depth cells; do
        args=${args//,--/ --}
        out=$("$bin" verify --protocol "$p" $args --symmetry "$1" 2>&1) || { echo "$out"; fail "$p $args"; }
        [ "$(field "$out" states)" = "$reduced" ] || { echo "$out"; fail "$p $args: not $reduced representatives"; }
        echo "$out" | grep -q "^verify $p: symmetry over $2: $reduced states up to relabelling stand for $whole states" ||
            { echo "$out"; fail "$p $args: the orbits do not add up to the whole search's $whole"; }
        echo "$out" | grep -q "^verify $p .*depth $depth,.*cells reached $cells of" ||
            { echo "$out"; fail "$p $args: not the whole search's depth $depth and $cells cells"; }
        n=$((n + 1))
    done
}

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

# reaches WHAT CELLS ARG...: `verify ARG... --coverage F` verifies (exit 0 and a
# "verified:" result line), its output says WHAT (a basic regular expression;
# empty: nothing more), and each of CELLS (coverage names, space-separated)
# fired or stalled at least once. Counts a check.
reaches() {
    local what=$1 cells=$2 c
    shift 2
    out=$("$bin" verify "$@" --coverage "$tmp/cov" 2>&1)
    [ $? -eq 0 ] || { echo "$out"; fail "verify $*: expected verified"; }
    echo "$out" | grep -q " verified: " || { echo "$out"; fail "verify $*: no result line"; }
    echo "$out" | grep -q -- "$what" || { echo "$out"; fail "verify $*: no '$what'"; }
    for c in $cells; do
        awk -v c="coverage.$c" '$1 == c && $2 > 0 {ok = 1} END {exit !ok}' "$tmp/cov" ||
            { grep -F "coverage.$c " "$tmp/cov"; fail "verify $*: $c not reached"; }
    done
    n=$((n + 1))
}

# bad WHY ARG...: `verify ARG...` exits 2 (bad input) with WHY in its message.
# Counts a check.
bad() {
    local why=$1
    shift
    out=$("$bin" verify "$@" 2>&1)
    [ $? -eq 2 ] || { echo "$out"; fail "verify $*: expected exit 2"; }
    echo "$out" | grep -q -- "$why" || { echo "$out"; fail "verify $*: no '$why'"; }
    n=$((n + 1))
}
