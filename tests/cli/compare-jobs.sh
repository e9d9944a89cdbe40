#!/usr/bin/env bash
# gpucoh compare -j N and the harmonic-mean row: -j 2 prints the same table
# and writes the same CSV and JSON as -j 1 (each pair a fresh machine,
# whatever process it runs in); each protocol's `hmean` row is the harmonic
# mean of its speedups over the workloads (recomputed here from the CSV's
# rows), the first protocol's 1.00; a wrong output under -j 2 still marks
# its row and exits 1.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

args=(--workloads mp,saxpy,bh --protocols nol1,rc,tcw --size tiny)
"$bin" compare "${args[@]}" --csv "$tmp/1.csv" --json "$tmp/1.json" >"$tmp/1.txt" 2>&1 || fail "-j 1 exited $?: $(cat "$tmp/1.txt")"
"$bin" compare "${args[@]}" -j 2 --csv "$tmp/2.csv" --json "$tmp/2.json" >"$tmp/2.txt" 2>&1 || fail "-j 2 exited $?: $(cat "$tmp/2.txt")"
cmp -s "$tmp/1.txt" "$tmp/2.txt" || fail "table differs with -j 2: $(diff "$tmp/1.txt" "$tmp/2.txt")"
cmp -s "$tmp/1.csv" "$tmp/2.csv" || fail "CSV differs with -j 2: $(diff "$tmp/1.csv" "$tmp/2.csv")"
cmp -s "$tmp/1.json" "$tmp/2.json" || fail "JSON differs with -j 2"
[ "$(grep -c '^\(mp\|saxpy\|bh\),' "$tmp/2.csv")" -eq 9 ] || fail "expected 9 rows: $(cat "$tmp/2.csv")"

# hmean rows: recomputed from the rows' cycles
for p in nol1 rc tcw; do
    want=$(awk -F, -v p="$p" 'NR > 1 && $1 != "hmean" { if ($3 == "nol1") base[$1] = $5; if ($3 == p) cyc[$1] = $5 }
        END { for (w in cyc) { s += cyc[w] / base[w]; n++ } printf "%.4f", n / s }' "$tmp/2.csv")
    got=$(awk -F, -v p="$p" '$1 == "hmean" && $3 == p { print $6 }' "$tmp/2.csv")
    [ -n "$got" ] || fail "no hmean row for $p: $(cat "$tmp/2.csv")"
    awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; exit !(d < 0.0002 && d > -0.0002) }' \
        || fail "hmean $p: CSV $got, harmonic mean of the rows $want"
    grep -qE "^hmean +$p +[0-9]+\.[0-9]{2}$" "$tmp/2.txt" || fail "table hmean row $p: $(cat "$tmp/2.txt")"
done
grep -q '^hmean,,nol1,,,1.0000,,' "$tmp/2.csv" || fail "baseline hmean: $(grep hmean "$tmp/2.csv")"
python3 - "$tmp/2.json" <<'PY' || fail "JSON hmean"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["rows"]) == 9, d
hm = {h["protocol"]: h for h in d["hmean"]}
assert set(hm) == {"nol1", "rc", "tcw"} and hm["nol1"]["speedup"] == 1 and hm["tcw"]["workloads"] == 3, hm
PY

# a wrong output in a child (rc-noinv's acquires do not invalidate: mp reads
# a stale flag's data): its row says so, exit 1
"$bin" compare --workloads mp --protocols nol1,rc-noinv --size tiny -j 2 >"$tmp/w.txt" 2>&1; rc=$?
[ $rc -eq 1 ] || fail "wrong output under -j 2 exited $rc: $(cat "$tmp/w.txt")"
grep -qE '^mp +rc-noinv +WRONG ' "$tmp/w.txt" || fail "no WRONG row: $(cat "$tmp/w.txt")"
echo ok
