#!/usr/bin/env bash
# Spandex (spec 003): GPU L1s on the Spandex LLC. The litmus suite passes at
# 200 iterations with DeNovo and with GPU-coherence L1s (1000 in the long
# target: tests/long/spandex-litmus.sh runs these parts with
# GPUCOH_SPANDEX_ITERATIONS=1000); on configs/
# spandex.ini (4 x 4 mesh, 16 LLC banks) the DRF stress tester passes 20 K
# episodes with small caches and the invariant observers (golden memory,
# single owner per word, bounded ownership retries) and every workload passes
# its CPU check under DeNovo L1s, which really own what they write; the
# tables are the ones docs/protocols/ prints. With every access drawing its
# request type from the full set (fcs.random: ReqV, ReqVo, ReqO+data, ReqS,
# ReqO, ReqWT, ReqWTfwd, ReqWTo and the +data atomics) and 30% of owner
# predictions sent to a wrong L1 on purpose, the litmus suite passes at 200
# (1000) iterations and the stress tester 20 K episodes with the observers on
# (forwarded updates performed exactly once, no Nack loop), with the owners'
# answers relayed by the LLC and sent from L1 to L1 (fcs.l1_to_l1). (tests/long/spandex.sh: the
# litmus suite on spandex.ini and 1 M stress episodes.)
# Each part is a test of its own (cli/spandex-PART; tests/data/parts.sh):
# parts: random-litmus random-stress denovo-litmus gpu-litmus stress workloads
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cfg=(--config "$root/configs/spandex.ini")
tests=("$root/litmus/ptx")
for t in "$root"/tests/litmus/*.litmus; do
    case $(basename "$t") in bad-*) ;; *) tests+=("$t") ;; esac
done
fcs=(--set fcs.random=true --set fcs.mispredict=30)
iterations=${GPUCOH_SPANDEX_ITERATIONS:-200}

# every request type drawn at random, 30% of owner predictions wrong; again
# with the owners' answers and predicted requests sent from L1 to L1
# (fcs.l1_to_l1)
part_random_litmus() {
    local peers
    for peers in false true; do
        "$bin" litmus --protocol spandex-d --iterations "$iterations" "${fcs[@]}" \
            --set fcs.l1_to_l1=$peers "${tests[@]}" >"$tmp/l.out" 2>&1 ||
            fail "litmus with random request types, l1_to_l1 $peers: $(grep -E 'FAIL|^==' "$tmp/l.out" | head)"
        grep -q "^== spandex-d (model ptx): [1-9][0-9]* passed, 0 failed" "$tmp/l.out" ||
            fail "litmus summary, random request types, l1_to_l1 $peers"
    done
    echo "random request types: litmus passed"
}
part_random_stress() {
    local out peers
    for peers in false true; do
        out=$("$bin" stress "${cfg[@]}" --protocol spandex-d --episodes 20000 --small-caches --check \
            "${fcs[@]}" --set fcs.l1_to_l1=$peers 2>&1) ||
            { echo "$out" | head -40; fail "stress with random request types, l1_to_l1 $peers"; }
        echo "$out" | grep -q "^stress spandex-d *passed: 20000 episodes" || fail "stress fcs: no pass line"
    done
    echo "random request types: stress passed"
}

# the litmus suite under DeNovo L1s (spandex-d) and GPU-coherence L1s (spandex-g)
litmus_under() {
    "$bin" litmus --protocol "$1" --iterations "$iterations" "${tests[@]}" >"$tmp/l.out" 2>&1 ||
        fail "litmus under $1: $(grep -E 'FAIL|^==' "$tmp/l.out" | head)"
    grep -q "^== $1 (model ptx): [1-9][0-9]* passed, 0 failed" "$tmp/l.out" || fail "litmus summary $1"
    echo "litmus under $1 passed"
}
part_denovo_litmus() { litmus_under spandex-d; }
part_gpu_litmus() { litmus_under spandex-g; }

# the stress tester on spandex.ini under both, and their tables as docs/protocols/ prints them
part_stress() {
    local p out
    for p in spandex-d spandex-g; do
        out=$("$bin" stress "${cfg[@]}" --protocol $p --episodes 20000 --small-caches --check 2>&1) ||
            { echo "$out" | head -40; fail "stress $p"; }
        echo "$out" | grep -q "^stress $p *passed: 20000 episodes" || fail "stress $p: no pass line"
        cmp -s <("$bin" protocol show $p --format md) "$root/docs/protocols/$p.md" ||
            fail "docs/protocols/$p.md differs from gpucoh protocol show $p"
    done
    echo "stress and tables passed under spandex-d and spandex-g"
}

# every workload's check under DeNovo L1s, which really take ownership; the tables' size
part_workloads() {
    "$bin" compare "${cfg[@]}" --workloads all --protocols spandex-d --size tiny --check \
        --csv "$tmp/w.csv" >"$tmp/w.out" 2>&1 || fail "$(grep -E 'WRONG|error|fault' -A2 "$tmp/w.out" | head)"
    [ "$(grep -c ',ok,' "$tmp/w.csv")" -eq "$(($(grep -vc '^hmean,' "$tmp/w.csv") - 1))" ] ||
        fail "a workload check failed"
    "$bin" run "${cfg[@]}" --workload histogram --size tiny --stats "$tmp/h.json" --quiet >/dev/null ||
        fail "histogram"
    local grants
    grants=$(grep -Po '"gpu.l2\[[0-9]+\].ownership_grants":\t\K[0-9]+' "$tmp/h.json" | awk '{s += $1} END {print s + 0}')
    [ "$grants" -gt 0 ] || fail "no ownership grant under spandex-d"
    # the size of the tables (spec 003 §2.8 compares designs by their state space)
    "$bin" protocol show spandex-d --format count >"$tmp/c.out" || fail "protocol show --format count"
    grep -Eq '^spandex-d +spandex.DeNovo-L1 +9 +[0-9]+ +[1-9][0-9]* ' "$tmp/c.out" || fail "no DeNovo L1 count"
    grep -Eq '^spandex-d +spandex.LLC +[1-9][0-9]* ' "$tmp/c.out" || fail "no LLC count"
    grep -Eq '^spandex-d +total ' "$tmp/c.out" || fail "no total"
    "$bin" protocol show all --format count | grep -Eq '^mesi +total ' || fail "count of every protocol"
    echo "workloads and table sizes passed"
}

source "$root/tests/data/parts.sh" "$0" "${3:-}"
echo "spandex: ${3:-every part} passed"
