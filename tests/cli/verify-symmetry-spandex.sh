#!/usr/bin/env bash
# gpucoh verify --symmetry on and values for Spandex (docs/verify.md, "Spandex
# under the reduction"): with every L1 of one device, states that differ only by
# a relabelling of the L1s (and of the stores' values) count once. Each row gives
# the whole search's states, the representatives over the L1s, their orbits'
# total (which must equal the whole search's count: the check that nothing
# naming an L1 is left unrelabelled) and the representatives over L1s and
# values, whose orbits must add up to the whole count too, all at the whole
# search's depth and cells. The rows reach ReqS sharers and their Invs
# (fcs.load=s), writes forwarded to owners (fcs.rmw=wtfwd_data: FwdWT with its
# requester's SM) and predicted requests with the owner predictor, RspOwner and
# Nacks (fcs.load=vo). The seeded spandex-d-noinv is caught in as many steps as
# without the reduction and replays; a mix of devices is explored whole and says
# why.
set -u
bin=$1
. "$(dirname "$0")/../verify-caught.sh" # fail, tmp (removed on exit), n, caught, field, shape

# protocol, arguments (commas for spaces), whole-space states, representatives over
# the L1s, representatives over the L1s and values (-: not run)
while read -r p args whole reduced values; do
    args=${args//,/ }
    off=$("$bin" verify --protocol "$p" $args --symmetry off 2>&1) || { echo "$off"; fail "$p $args off"; }
    [ "$(field "$off" states)" = "$whole" ] || { echo "$off"; fail "$p $args: not $whole states"; }
    for mode in on values; do
        want=$reduced what="2 L1s|3 L1s"
        if [ "$mode" = values ]; then
            [ "$values" = - ] && continue
            want=$values what="[23] L1s and the stores' values"
        fi
        on=$("$bin" verify --protocol "$p" $args --symmetry $mode 2>&1) || { echo "$on"; fail "$p $args $mode"; }
        [ "$(field "$on" states)" = "$want" ] || { echo "$on"; fail "$p $args $mode: not $want representatives"; }
        echo "$on" | grep -Eq "^verify $p: symmetry over ($what): $want states up to relabelling stand for $whole states" ||
            { echo "$on"; fail "$p $args $mode: the orbits do not add up to the whole search's $whole states"; }
        [ "$(shape "$off" "$p")" = "$(shape "$on" "$p")" ] ||
            fail "$p $args $mode: depth or cells differ: '$(shape "$off" "$p")' vs '$(shape "$on" "$p")'"
    done
    n=$((n + 1))
done <<'TABLE'
spandex-g --l1s=2 6170 3122 1596
spandex-d --l1s=2 29346 14684 7377
spandex-g --l1s=3,--ops=1 14886 2685 -
spandex-d --l1s=3,--ops=1 48120 8133 -
spandex-d --set,fcs.load=s 26479 13253 6659
spandex-d --set,fcs.rmw=wtfwd_data 39018 19544 9807
spandex-d --set,fcs.load=vo,--ops=3,--no-atomics,--values=1 16720 8371 -
TABLE

# the seeded bug: caught in the whole search's 9 steps (6 988 states whole), replayed
caught spandex-d-noinv "$tmp/noinv.cex" "data value" \
    "data value: l1\[[01]\]'s load of line 0 returned 0; the protocol's model allows only \{1\}" \
    --ops 3 --symmetry on
[ "$steps" -eq 9 ] || fail "spandex-d-noinv: $steps steps, not 9"
echo "$out" | grep -qE "l1\[[01]\] +LoadHit +V>V" || { echo "$out"; fail "replay: no trace of the stale hit"; }
out=$("$bin" verify --protocol spandex-d-noinv --ops 3 --symmetry on 2>&1)
echo "$out" | grep -q "^verify spandex-d-noinv: symmetry over 2 L1s: 3536 states up to relabelling" ||
    { echo "$out"; fail "spandex-d-noinv: not 3536 representatives"; }
n=$((n + 1))
caught spandex-d-noinv "$tmp/noinv-v.cex" "data value" \
    "data value: l1\[[01]\]'s load of line 0 returned 0; the protocol's model allows only \{1\}" \
    --ops 3 --symmetry values
[ "$steps" -eq 9 ] || fail "spandex-d-noinv with values: $steps steps, not 9"
n=$((n + 1))

# a mix of devices on 3 L1s: only the relabellings that keep each L1's device
# (the two of one device swapped); the orbits add up to the whole search
for mix in "spandex-g gpu,gpu,mesi 12178 23938" "spandex-d denovo,denovo,mesi 32624 65022"; do
    set -- $mix
    out=$("$bin" verify --protocol "$1" --l1s 3 --devices "$2" --ops 1 --symmetry off 2>&1)
    echo "$out" | grep -q "^verify $1 *verified: .*: $4 states," ||
        { echo "$out"; fail "$1 --devices $2: the whole search is not $4 states"; }
    out=$("$bin" verify --protocol "$1" --l1s 3 --devices "$2" --ops 1 --symmetry on 2>&1)
    echo "$out" | grep -q "^verify $1: symmetry over 3 L1s (each among those of its device): $3 states up to relabelling stand for $4 states" ||
        { echo "$out"; fail "$1 --devices $2: not reduced to $3 states standing for $4"; }
    n=$((n + 1))
done

# two L1s of different devices run different tables: explored whole, with the reason
for mix in "spandex-g gpu,mesi" "spandex-g gpu,denovo" "spandex-d denovo,mesi"; do
    set -- $mix
    out=$("$bin" verify --protocol "$1" --devices "$2" --ops 1 --symmetry on 2>&1)
    [ $? -eq 0 ] || { echo "$out"; fail "$1 --devices $2: not verified"; }
    echo "$out" | grep -q "^verify $1: symmetry not used (2 L1s): no two of its L1s are of one device" ||
        { echo "$out"; fail "$1 --devices $2: no reason for not reducing"; }
    echo "$out" | grep -q "symmetry over" && fail "$1 --devices $2: reported as reduced"
    n=$((n + 1))
done

echo "verify-symmetry-spandex: $n passed, 0 failed"
