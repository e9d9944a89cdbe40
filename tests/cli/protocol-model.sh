#!/usr/bin/env bash
# A protocol whose promise rests on one memory model takes that model when the
# user chose none, and says so in one line; a model the user chose stands (and
# is refused) - on every command that builds a machine. Multi-GPM protocols
# are refused on the default single-GPU machine, and run on one GPM only when
# the topology says 1 x 1 explicitly.
#  - rccsc (SC only): run, exec, litmus, stress, compare, sweep and config show
#    run it under order.model = sc with "rccsc: order.model = sc (the model it
#    requires)" on stderr; --set order.model=rmo, or a configuration file that
#    gives both the protocol and rmo, is refused (exit 2, file:line or --set);
#  - tcw (PTX under rmo only) on configs/rcc-fermi.ini (order.model = sc in the
#    file) runs under rmo, saying so;
#  - nhcc hmg ideal-mg nocache-mg sw-nh sw-h on the default machine: exit 2
#    naming the single GPU module, [topology] and configs/hmg-4x4.ini; with
#    topology.gpus = gpms = 1 set they run.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
note="^gpucoh: rccsc: order.model = sc (the model it requires)$"

takes_sc() { # takes_sc NAME CMD...: exits 0 and prints the note once
    local name=$1; shift
    "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || fail "$name: exit $?: $(tail -5 "$tmp/$name.err")"
    [ "$(grep -c "$note" "$tmp/$name.err")" = 1 ] ||
        fail "$name: no single note of the model: $(cat "$tmp/$name.err")"
}
takes_sc run "$bin" run --workload vecadd --size tiny --protocol rccsc --quiet
takes_sc exec "$bin" exec "$root/examples/vecadd.spec" --protocol rccsc --quiet
takes_sc litmus "$bin" litmus --protocol rccsc --iterations 20 "$root/litmus/ptx/Manual/MP-gpu.litmus"
grep -q "^== rccsc (model sc): 1 passed, 0 failed" "$tmp/litmus.out" ||
    fail "litmus: not judged under sc: $(cat "$tmp/litmus.out")"
takes_sc stress "$bin" stress --protocol rccsc --episodes 200 --small-caches
takes_sc compare "$bin" compare --workloads vecadd --protocols nol1,rccsc --size tiny
grep -Eq "^vecadd +rccsc +ok " "$tmp/compare.out" || fail "compare: $(cat "$tmp/compare.out")"
takes_sc config "$bin" config show --protocol rccsc
grep -q "^model = sc$" "$tmp/config.out" || fail "config show: order.model is not sc"
printf 'workloads vecadd\nprotocols rccsc\nsizes tiny\n' >"$tmp/s.sweep"
"$bin" sweep "$tmp/s.sweep" --out "$tmp/sweep" >"$tmp/sweep.log" 2>&1 ||
    fail "sweep: exit $?: $(cat "$tmp/sweep.log")"
grep -q ",vecadd,basic,tiny,rccsc,rccsc,,0,ok,[1-9]" "$tmp/sweep/results.csv" ||
    fail "sweep: $(cat "$tmp/sweep/results.csv")"
# the same cycles as under an explicit sc: the model taken is the one it needs
a=$("$bin" run --workload vecadd --size tiny --protocol rccsc --quiet 2>/dev/null | awk '/^  cycles/ {print $2}')
b=$("$bin" run --workload vecadd --size tiny --protocol rccsc --set order.model=sc --quiet 2>&1 |
    awk '/^  cycles/ {print $2}')
[ -n "$a" ] && [ "$a" = "$b" ] || fail "rccsc alone ($a cycles) differs from rccsc under sc ($b)"
"$bin" run --workload vecadd --size tiny --protocol rccsc --set order.model=sc --quiet 2>&1 |
    grep -q "order.model = sc (the model" && fail "a note although the user set sc"

refused() { # refused PATTERN CMD...
    local pat=$1; shift
    "$@" >"$tmp/r.out" 2>&1; local rc=$?
    [ $rc -eq 2 ] || fail "'$*': exit $rc, expected 2: $(cat "$tmp/r.out")"
    grep -q -- "$pat" "$tmp/r.out" || fail "'$*': expected '$pat' in: $(cat "$tmp/r.out")"
}
refused "^gpucoh: error: --set order.model=tso: coherence.protocol = rccsc needs order.model = sc" \
    "$bin" run --workload vecadd --size tiny --protocol rccsc --set order.model=tso
refused "needs order.model = sc" "$bin" litmus --protocol rccsc --set order.model=rmo --iterations 5 \
    "$root/litmus/ptx/Manual/MP-gpu.litmus"
printf '[order]\nmodel = rmo\n\n[coherence]\nprotocol = rccsc\n' >"$tmp/both.ini"
refused "both.ini:2: coherence.protocol = rccsc needs order.model = sc" \
    "$bin" run --workload vecadd --size tiny --config "$tmp/both.ini"
# a file that names the protocol and no model: the protocol's model
printf '[coherence]\nprotocol = rccsc\n' >"$tmp/proto.ini"
"$bin" config show --config "$tmp/proto.ini" >"$tmp/p.out" 2>"$tmp/p.err" || fail "proto.ini: $(cat "$tmp/p.err")"
grep -q "$note" "$tmp/p.err" && grep -q "^model = sc$" "$tmp/p.out" || fail "proto.ini: not sc"

# tcw keeps its promise under rmo only: on the RCC machine (sc in the file) it takes rmo
"$bin" run --workload vecadd --size tiny --config "$root/configs/rcc-fermi.ini" --protocol tcw --quiet \
    >"$tmp/t.out" 2>&1 || fail "tcw on rcc-fermi.ini: $(cat "$tmp/t.out")"
grep -q "^gpucoh: tcw: order.model = rmo (the model it requires)$" "$tmp/t.out" || fail "tcw note: $(cat "$tmp/t.out")"
refused "needs a write-atomic protocol" "$bin" run --workload vecadd --size tiny --protocol tcw --set order.model=sc

# multi-GPM protocols on one GPU module
for p in nhcc hmg ideal-mg nocache-mg sw-nh sw-h; do
    refused "coherence.protocol = $p is a multi-GPM protocol, but the machine has one GPU module: give it a \[topology\] of several GPUs or GPMs (configs/hmg-4x4.ini" \
        "$bin" run --workload vecadd --size tiny --protocol $p
    "$bin" run --workload vecadd --size tiny --protocol $p --set topology.gpus=1 --set topology.gpms=1 \
        --quiet >"$tmp/one.out" 2>&1 || fail "$p on an explicit 1 x 1 machine: $(cat "$tmp/one.out")"
done
refused "is a multi-GPM protocol" "$bin" litmus --protocol hmg --iterations 5 "$root/litmus/ptx/Manual/MP-gpu.litmus"
refused "is a multi-GPM protocol" "$bin" stress --protocol nhcc --episodes 10
"$bin" run --workload vecadd --size tiny --protocol hmg --config "$root/configs/hmg-scaled.ini" --quiet \
    >"$tmp/mg.out" 2>&1 || fail "hmg on hmg-scaled.ini: $(cat "$tmp/mg.out")"
echo "protocol-model: passed"
