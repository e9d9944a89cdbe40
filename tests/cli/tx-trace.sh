#!/bin/bash
# tx-trace.sh - getm.trace_warp prints one warp's transactional events: HT-H
# at tiny size under GETM and WarpTM, warp slot 0 of SM 0 (trace_warp = 1).
# Checks that the trace follows a transaction from its begin to its end
# (every request sent gets its verdict, at a later cycle, and the trace ends
# with the transaction done), that tracing changes no statistic (the run's
# JSON equals the untraced run's but for the wall-clock speed), that nothing
# is printed without it, and that a warp slot the machine lacks is an input
# error (exit 2, file:line).
# usage: tx-trace.sh GPUCOH REPO
set -u
bin=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- output:"; head -50 "$tmp/err"; exit 1; }
cfg=(--config "$root/configs/getm-fermi.ini" --workload ht --variant tx --size tiny --quiet)
for proto in getm warptm; do
    "$bin" run "${cfg[@]}" --protocol $proto --stats "$tmp/plain.json" >"$tmp/out" 2>"$tmp/err" ||
        fail "$proto untraced: exit $?"
    grep -q "tx-trace" "$tmp/err" && fail "$proto: a trace without getm.trace_warp"
    "$bin" run "${cfg[@]}" --protocol $proto --set getm.trace_warp=1 --stats "$tmp/traced.json" \
        >"$tmp/out" 2>"$tmp/err" || fail "$proto traced: exit $?"
    grep -qE "^tx-trace [0-9]+ gpu.sm\[0\] warp 0: transaction begins" "$tmp/err" ||
        fail "$proto: no begin traced"
    grep -qE "^tx-trace [0-9]+ gpu.sm\[0\] warp 0: attempt ends: [0-9]+ lanes commit, 0 abort; the transaction is done" \
        "$tmp/err" || fail "$proto: no transaction traced to its end"
    grep -v "^tx-trace [0-9]* gpu.sm\[0\] warp 0: " "$tmp/err" | grep -q "tx-trace" &&
        fail "$proto: another warp traced"
    # every request sent has its verdict (GETM) or data (WarpTM) at a later cycle
    python3 - "$tmp/err" <<'EOF' || fail "$proto: a request without its answer"
import re, sys
sent, n = {}, 0
for line in open(sys.argv[1]):
    m = re.match(r"tx-trace (\d+) \S+ warp 0: (load|store) line (0x[0-9a-f]+) (sent|verdict)", line)
    if not m:
        continue
    c, key = int(m.group(1)), (m.group(2), m.group(3))
    if m.group(4) == "sent":
        sent.setdefault(key, []).append(c)
    else:
        assert sent.get(key), f"verdict without a request: {line}"
        assert sent[key].pop(0) < c, f"verdict before its request: {line}"
        n += 1
assert n > 0 and not any(sent.values()), f"{n} verdicts, unanswered {sent}"
EOF
    python3 - "$tmp/plain.json" "$tmp/traced.json" <<'EOF' || fail "$proto: tracing changed the statistics"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for j in (a, b):
    j.pop("speed")
    del j["config"]["getm.trace_warp"]
assert a == b
EOF
done
"$bin" run "${cfg[@]}" --protocol getm --set getm.trace_warp=100000 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || fail "trace_warp beyond the machine: exit $rc, expected 2"
grep -q "getm.trace_warp (100000) names no warp slot: the machine has 720" "$tmp/err" ||
    fail "trace_warp beyond the machine: no clear message"
echo ok
