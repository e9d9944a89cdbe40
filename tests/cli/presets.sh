#!/usr/bin/env bash
# The machine presets of current GPUs (configs/volta-v100.ini,
# configs/ampere-a100.ini): `gpucoh config list` shows them with what they
# are; `config show` resolves each to the numbers its comments cite (SMs,
# L1 + shared memory, L2 in all, slices, DRAM bandwidth); every protocol that
# runs on one GPU (all but the multi-GPM and test-only ones, read from
# `gpucoh list protocols`) runs mp at tiny on both with a correct result,
# as one sweep with -j 2. The multi-GPM protocols need a machine with a
# [topology] (configs/hmg-*.ini) and are refused on a preset as on tc-fermi.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$bin" config list >"$tmp/list" || fail "config list exited $?"
grep -qE "/configs/volta-v100\.ini +a Volta-class GPU like the Tesla V100" "$tmp/list" || fail "volta: $(cat "$tmp/list")"
grep -qE "/configs/ampere-a100\.ini +an Ampere-class GPU like the A100" "$tmp/list" || fail "ampere: $(cat "$tmp/list")"
grep -qE "/configs/tc-fermi\.ini +the Fermi-like GPU" "$tmp/list" || fail "tc-fermi: $(cat "$tmp/list")"

# key = value of a resolved configuration
val() { awk -v s="[$2]" -v k="$3" '/^\[/ { sec = $1 } sec == s && $1 == k { print $3 }' "$tmp/$1.ini"; }
for m in volta-v100 ampere-a100; do
    "$bin" config show --config "$root/configs/$m.ini" >"$tmp/$m.ini" || fail "config show $m exited $?"
done
check() { # machine sms l1+shared(KB) L2(KB) slices bandwidth(GB/s, integer part)
    local m=$1
    [ "$(val $m gpu sms)" = "$2" ] || fail "$m: sms $(val $m gpu sms), expected $2"
    local kb=$(( ($(val $m l1 size) + $(val $m sm shmem_bytes)) / 1024 ))
    [ "$kb" = "$3" ] || fail "$m: L1 + shared $kb KB, expected $3"
    local l2=$(( $(val $m l2 banks) * $(val $m l2 size) / 1024 ))
    [ "$l2" = "$4" ] || fail "$m: L2 $l2 KB, expected $4"
    [ "$(val $m l2 banks)" = "$5" ] || fail "$m: slices $(val $m l2 banks), expected $5"
    local bw=$(awk -v b="$(val $m l2 banks)" -v w="$(val $m dram bus_bytes_per_cycle)" -v f="$(val $m dram mhz)" \
        'BEGIN { printf "%d", b * w * f / 1000 }')
    [ "$bw" = "$6" ] || fail "$m: DRAM $bw GB/s, expected $6"
}
check volta-v100 80 128 6144 64 870
check ampere-a100 108 192 40960 80 1555

protos=$("$bin" list protocols | grep -v '\[multi-GPM\]\|\[test only\]' | awk '{print $1}')
[ "$(echo "$protos" | wc -l)" -ge 18 ] || fail "protocols: $protos"
entries=$(for p in $protos; do
    # a protocol that runs only under its own memory model gets it
    model=$("$bin" list protocols | awk -v p="$p" '$1 == p { print ($2 == "-" && $4 == "sc") ? "sc" : "" }')
    if [ -n "$model" ]; then echo -n "$p=$p:order.model=$model "; else echo -n "$p "; fi
done)
cat >"$tmp/presets.sweep" <<SPEC
config configs/volta-v100.ini configs/ampere-a100.ini
workloads mp
protocols $entries
sizes tiny
SPEC
n=$(( 2 * $(echo "$protos" | wc -l) ))
(cd "$root" && "$bin" sweep "$tmp/presets.sweep" -j 2 --out "$tmp/out") >"$tmp/log" 2>&1 \
    || fail "sweep exited $?: $(grep -v '^\[' "$tmp/log"; grep FAILED "$tmp/log")"
[ "$(grep -c ',mp,basic,tiny,.*,0,ok,[1-9]' "$tmp/out/results.csv")" -eq $n ] \
    || fail "expected $n ok rows: $(cat "$tmp/out/results.csv")"

"$bin" run --workload mp --size tiny --protocol nhcc --config "$root/configs/volta-v100.ini" --quiet >"$tmp/mg" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "nhcc on a preset without a topology exited $rc: $(cat "$tmp/mg")"
echo ok
