#!/bin/bash
# getm-series.sh - GETM's stall buffer over time and the figures' statistics
# (docs/stats.md, docs/transactions.md; thesis Figs. 4.13-4.16). HT-H at tiny
# size under GETM with --stats-series: the protocol's columns getm_stall_requests
# and getm_stall_lines follow the machine-wide ones, are integers, stay within
# the stall buffers' room (stall_entries x stall_lines x banks, stall_lines x
# banks), are nonzero at some sample of this contended run and 0 at the end;
# sampling changes no statistic. The run's per-bank statistics agree: the most
# waiting at once in a bank is at least every sample's share and at most the
# bank's room; a line's uses and peaks are consistent; the table cycles per
# access are at least 1. WarpTM adds no column (its file is the machine-wide
# one). getm.granule: 64 runs (and changes the run), 16 and 48 are input errors
# naming the key (exit 2).
# usage: getm-series.sh GPUCOH REPO
set -u
bin=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- output:"; head -30 "$tmp/err"; exit 1; }
cfg=(--config "$root/configs/getm-fermi.ini" --workload ht --variant tx --size tiny --quiet)

"$bin" run "${cfg[@]}" --protocol getm --stats "$tmp/plain.json" >"$tmp/out" 2>"$tmp/err" ||
    fail "getm plain: exit $?"
"$bin" run "${cfg[@]}" --protocol getm --stats "$tmp/sampled.json" --stats-interval 50 \
    --stats-series "$tmp/getm.csv" >"$tmp/out" 2>"$tmp/err" || fail "getm sampled: exit $?"
python3 - "$tmp/plain.json" "$tmp/sampled.json" "$tmp/getm.csv" <<'EOF' || fail "getm series"
import csv, json, sys
plain, sampled = (json.load(open(f)) for f in sys.argv[1:3])
for d in (plain, sampled):
    del d["speed"]
assert plain == sampled, "sampling changed the statistics"
st = plain["stats"]
rows = list(csv.DictReader(open(sys.argv[3])))
cols = list(rows[0].keys())
assert cols[-3:] == ["outstanding", "getm_stall_requests", "getm_stall_lines"], cols
banks = sorted({k.split(".getm.")[0] for k in st if ".l2[" in k and ".getm.vu_stall_max" in k})
assert len(banks) == 6, banks
lines, entries = 4, 4  # configs/getm-fermi.ini
req = [int(r["getm_stall_requests"]) for r in rows]  # int(): numeric, whole
lin = [int(r["getm_stall_lines"]) for r in rows]
assert all(0 <= v <= entries * lines * len(banks) for v in req), max(req)
assert all(0 <= v <= lines * len(banks) for v in lin), max(lin)
assert all(l <= q for l, q in zip(lin, req)), "more lines in use than requests waiting"
assert all((l == 0) == (q == 0) for l, q in zip(lin, req)), "lines without requests"
assert max(req) > 0, "no request ever waited in a stall buffer on HT-H"
assert req[-1] == 0 and lin[-1] == 0, "requests left waiting after the run"
bank_max = [st[b + ".getm.vu_stall_max"] for b in banks]
assert all(0 <= m <= entries * lines for m in bank_max), bank_max
assert max(req) <= sum(bank_max), f"a sample {max(req)} above the banks' maxima {sum(bank_max)}"
assert max(bank_max) > 0
for b in banks:
    uses, peaks = st[b + ".getm.vu_stall_line_uses"], st[b + ".getm.vu_stall_line_peaks"]
    lmax = st[b + ".getm.vu_stall_lines_max"]
    assert uses <= peaks <= uses * entries, (b, uses, peaks)
    assert (uses == 0) == (st[b + ".getm.vu_stall_max"] == 0) and lmax <= lines, b
    assert st[b + ".getm.granule_waits"] >= peaks, b  # every waiter counted once at least
    g, a, cyc = st[b + ".getm.granules"], st[b + ".getm.vu_accesses"], st[b + ".getm.vu_table_cycles"]
    assert 0 < g <= a and cyc >= a, (b, g, a, cyc)
    assert 1 <= st[b + ".getm.vu_table_cycles_max"] <= 1 + 16 + 4096 + 1, b
EOF

# WarpTM: no protocol columns
"$bin" run "${cfg[@]}" --protocol warptm --stats-interval 200 --stats-series "$tmp/warptm.csv" \
    >"$tmp/out" 2>"$tmp/err" || fail "warptm sampled: exit $?"
head -1 "$tmp/warptm.csv" | grep -q ',outstanding$' || fail "warptm columns: $(head -1 "$tmp/warptm.csv")"

# the granule: 64 runs and differs; 16 (8 a line) and 48 (not a power of two) are refused
"$bin" run "${cfg[@]}" --protocol getm --set getm.granule=64 --stats "$tmp/g64.json" \
    >"$tmp/out" 2>"$tmp/err" || fail "granule 64: exit $?"
cmp -s <(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cycles"])' "$tmp/plain.json") \
    <(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cycles"])' "$tmp/g64.json") &&
    fail "granule 64 ran the same cycles as 32"
for g in 16 48; do
    "$bin" run "${cfg[@]}" --protocol getm --set getm.granule=$g >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "granule $g: exit $rc, not 2"
    grep -q "getm.granule ($g)" "$tmp/err" || fail "granule $g: the message does not name the key"
done
echo "getm-series: ok"
