#!/usr/bin/env bash
# The Spandex options behind repro/spandex's ablations (README, "What the
# ablations measure"): fcs.wb_clean = false writes back only the owned words
# that differ from the LLC's copy (FCNN's weights, owned and only read, leave
# with no data; the LLC checks under --check that the words it keeps equal
# the golden memory) and moves fewer bytes; fcs.l1_to_l1 = true sends the
# owners' answers and the predicted requests from L1 to L1, past the LLC, and
# has a line's one owner answer its readers; fcs.strong_shared = true lets the
# flag polls typed ReqS read their line as registered sharers (FlexV/S: GPU
# ReqS requests at the LLC, far fewer ReqV); cpu.store_drain = parallel and
# cpu.order = rmo change the CPU cores' timing and keep every value right
# (Prod-Cons under --check); the LLC counts requests per type and side; bad
# values are refused with exit 2.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cfg=(--config "$root/configs/spandex.ini")
T=$root/repro/spandex/tables
# the sum of statistic $2 over every component of stats file $1
sum() { grep -Po "\"[^\"]*\\.$2\":\\s*\\K[0-9]+" "$1" | awk '{s += $1} END {print s + 0}'; }
bytes() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(v['bytes'] for v in d['traffic'].values()))" "$1"; }
cycles() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['cycles'])" "$1"; }
run() { # run NAME WORKLOAD ARGS...: a checked tiny run, statistics in $tmp/NAME.json
    local n=$1 w=$2; shift 2
    "$bin" run --workload "$w" --size tiny "${cfg[@]}" --check --stats "$tmp/$n.json" --quiet "$@" \
        >"$tmp/$n.out" 2>&1 || fail "$n: $(tail -3 "$tmp/$n.out")"
}
fcs=(--protocol spandex-d --set fcs.fwd=false --set fcs.pred=false)

# fcs.wb_clean
run wb fcnn "${fcs[@]}" --set "fcs.table=$T/fcs/%m.fcs"
run nowb fcnn "${fcs[@]}" --set "fcs.table=$T/fcs/%m.fcs" --set fcs.wb_clean=false
[ "$(sum "$tmp/wb.json" wb_clean_words)" -eq 0 ] || fail "wb_clean words counted by default"
[ "$(sum "$tmp/nowb.json" wb_clean_words)" -gt 0 ] || fail "fcs.wb_clean=false: no clean word left without data"
[ "$(bytes "$tmp/nowb.json")" -lt "$(bytes "$tmp/wb.json")" ] ||
    fail "fcs.wb_clean=false moved $(bytes "$tmp/nowb.json") bytes, the default $(bytes "$tmp/wb.json")"
# words an old owner handed over are written back with their data: Prod-Cons
# under forwarding (the GPU's forwarded stores write the CPU's owned words)
run pcwb prod-cons --protocol spandex-d --set "fcs.table=$T/fcs-fwd/%m.fcs" --set fcs.pred=false \
    --set fcs.wb_clean=false

# fcs.strong_shared: FlexV/S's polls as sharers
run polls flex-vs "${fcs[@]}" --set "fcs.table=$T/fcs-polls-s/%m.fcs"
run pollss flex-vs "${fcs[@]}" --set "fcs.table=$T/fcs-polls-s/%m.fcs" --set fcs.strong_shared=true
[ "$(sum "$tmp/polls.json" requests.gpu.S)" -eq 0 ] || fail "a strong load sent ReqS by default"
[ "$(sum "$tmp/pollss.json" requests.gpu.S)" -gt 0 ] || fail "fcs.strong_shared: no GPU ReqS"
[ "$(sum "$tmp/pollss.json" requests.gpu.V)" -lt "$(( $(sum "$tmp/polls.json" requests.gpu.V) / 2 ))" ] ||
    fail "fcs.strong_shared: GPU ReqV $(sum "$tmp/pollss.json" requests.gpu.V), default $(sum "$tmp/polls.json" requests.gpu.V)"
# the per-type counts add up to the requests the L1s sent: one ReqO+data a line the GPU owns
[ "$(sum "$tmp/polls.json" requests.gpu.Odata)" -eq "$(sum "$tmp/polls.json" ownership_requests)" ] ||
    fail "requests.gpu.Odata $(sum "$tmp/polls.json" requests.gpu.Odata), ownership requests $(sum "$tmp/polls.json" ownership_requests)"

# fcs.l1_to_l1: an old owner's words (FlexO/WT under SDD), the owners' answers
# and the predicted requests (Prod-Cons under FCS+pred) go from L1 to L1, none
# through the LLC, every value right under --check; faster with one hop less
run relay flex-o-wt --protocol spandex-d
run direct flex-o-wt --protocol spandex-d --set fcs.l1_to_l1=true
[ "$(sum "$tmp/relay.json" relays)" -gt 0 ] || fail "FlexO/WT under SDD: no relayed words by default"
[ "$(sum "$tmp/direct.json" relays)" -eq 0 ] || fail "fcs.l1_to_l1: the LLC relayed $(sum "$tmp/direct.json" relays) times"
[ "$(cycles "$tmp/direct.json")" -lt "$(cycles "$tmp/relay.json")" ] ||
    fail "fcs.l1_to_l1: $(cycles "$tmp/direct.json") cycles, relayed $(cycles "$tmp/relay.json")"
run predrelay prod-cons --protocol spandex-d --set "fcs.table=$T/fcs-pred/%m.fcs"
run preddirect prod-cons --protocol spandex-d --set "fcs.table=$T/fcs-pred/%m.fcs" --set fcs.l1_to_l1=true
for k in predicted_passed answers_passed; do
    [ "$(sum "$tmp/predrelay.json" $k)" -gt 0 ] || fail "Prod-Cons under FCS+pred: no $k by default"
    [ "$(sum "$tmp/preddirect.json" $k)" -eq 0 ] || fail "fcs.l1_to_l1: $k $(sum "$tmp/preddirect.json" $k)"
done
[ "$(sum "$tmp/preddirect.json" predicted_sent)" -gt 0 ] || fail "fcs.l1_to_l1: no predicted request sent"
# ... and a read of a line that one other L1 owns is answered by that owner
# (Prod-Cons under SDD: the consumer's ReqV of the producer's words), not
# gathered at the LLC: fewer bytes, every value right under --check
run gather prod-cons --protocol spandex-d
run directread prod-cons --protocol spandex-d --set fcs.l1_to_l1=true
[ "$(sum "$tmp/gather.json" gathers)" -gt 0 ] || fail "Prod-Cons under SDD: no gathered read by default"
[ "$(sum "$tmp/gather.json" direct_reads)" -eq 0 ] || fail "a read answered by its owner by default"
[ "$(sum "$tmp/directread.json" direct_reads)" -gt 0 ] || fail "fcs.l1_to_l1: no read answered by its owner"
[ "$(sum "$tmp/directread.json" gathers)" -lt "$(sum "$tmp/gather.json" gathers)" ] ||
    fail "fcs.l1_to_l1: $(sum "$tmp/directread.json" gathers) gathers, $(sum "$tmp/gather.json" gathers) by default"
[ "$(bytes "$tmp/directread.json")" -lt "$(bytes "$tmp/gather.json")" ] ||
    fail "fcs.l1_to_l1: $(bytes "$tmp/directread.json") bytes, gathered $(bytes "$tmp/gather.json")"

# cpu.store_drain, cpu.order
run serial prod-cons --protocol spandex-g
run parallel prod-cons --protocol spandex-g --set cpu.store_drain=parallel
run rmo prod-cons --protocol spandex-g --set cpu.order=rmo
[ "$(cycles "$tmp/parallel.json")" -ne "$(cycles "$tmp/serial.json")" ] || fail "cpu.store_drain changed nothing"
[ "$(cycles "$tmp/rmo.json")" -ne "$(cycles "$tmp/serial.json")" ] || fail "cpu.order changed nothing"
for bad in cpu.store_drain=sideways cpu.order=pso fcs.wb_clean=maybe fcs.l1_to_l1=2; do
    "$bin" run --workload prod-cons --size tiny "${cfg[@]}" --set "$bad" >"$tmp/bad.out" 2>&1
    [ $? -eq 2 ] || fail "--set $bad not refused with exit 2: $(tail -2 "$tmp/bad.out")"
done
echo "spandex-options: ok"
