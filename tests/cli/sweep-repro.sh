#!/usr/bin/env bash
# gpucoh repro tc at tiny: every run of repro/tc/tc.sweep finishes, summary.csv
# has the issue's header and one row per set and configuration that exists in
# this build (with numbers), the report has the paper's numbers beside
# gpucoh's and names what it could not run, and every figure is an SVG and a
# PNG. The generic engine gives what the spec-002 reproduction gave before it
# became data: tests/data/repro-tc-tiny/ holds the report and summary.csv the
# C reproduction wrote at size tiny, and this run must say the same
# (tests/data/repro-same.sh: the same bytes but for paths and claim details),
# and the same as repro/tc/results/tiny/ (the tiny check, repro-tiny-same.sh).
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$bin" repro tc --size tiny -j 2 --out "$tmp/r" >"$tmp/report" 2>"$tmp/log"; rc=$?
[ $rc -eq 0 ] || fail "repro exited $rc: $(tail -20 "$tmp/log")"
sum=$tmp/r/summary.csv
[ "$(head -1 "$sum")" = "set,protocol,speedup_hm,traffic_norm" ] || fail "header: $(head -1 "$sum")"
protocols=$("$bin" list protocols | awk '{print $1}')
has() { echo "$protocols" | grep -qx "$1"; }
n=0
for cfg in nol1:nol1 rc:rc mesi:mesi gpuvi:gpuvi gpuvini:gpuvini ideal:ideal tcs:tcs tcw-fixed:tcw tcw:tcw; do
    name=${cfg%%:*}; proto=${cfg#*:}
    for set in inter intra; do
        if has "$proto"; then
            grep -Eq "^$set,$name,[0-9]+\.[0-9]{4},[0-9]+\.[0-9]{4}$" "$sum" || fail "no row $set,$name: $(cat "$sum")"
            n=$((n + 1))
        else
            grep -q "^$set,$name," "$sum" && fail "row for $name, whose protocol $proto is not built"
            grep -q "  $name (.*) needs protocol '$proto'" "$tmp/report" || fail "report does not say $name is not run"
        fi
    done
done
[ "$(sed '/^$/,$d' "$sum" | tail -n +2 | wc -l)" -eq $n ] || fail "expected $n rows: $(cat "$sum")"
# after a blank line, every number of paper.csv with gpucoh's, its effect ratio and direction
[ "$(sed -n '/^$/,$p' "$sum" | grep -c '^Fig')" -eq "$(grep -c '^Fig' "$root/repro/tc/paper.csv")" ] ||
    fail "summary.csv: not a row per paper.csv number: $(cat "$sum")"
grep -q "^inter,nol1,1.0000,1.0000$" "$sum" || fail "nol1 is the inter baseline: $(cat "$sum")"
grep -q "^intra,rc,1.0000,1.0000$" "$sum" || fail "rc is the intra baseline: $(cat "$sum")"
grep -qE "^Fig7a   inter      tcw speedup over nol1             1.85 +[0-9]+\.[0-9]{2}  +-?[0-9]+\.[0-9]{2} (✓|✗)    " "$tmp/report" ||
    fail "paper table: $(cat "$tmp/report")"
grep -q "== Fig. 11a" "$tmp/report" || fail "no Fig. 11 table"
for c in "all: TCS < TCW-FIXED < TCW" "all: TCW is faster than TCS with less traffic" \
    "inter: MESI, GPU-VI, GPU-VIni and TCW are clearly faster than NO-L1" \
    "intra: TCW has the least traffic of the coherent protocols"; do
    grep -q "^\[\(holds\|does not hold\|cannot check\)\] $c" "$tmp/report" || fail "no shape claim '$c'"
done
cmp -s "$tmp/report" "$tmp/r/report.txt" || fail "report.txt differs from what was printed"
for f in fig7a fig7b fig8a fig8b fig10a fig10b fig11a fig11b; do
    grep -q "</svg>" "$tmp/r/$f.svg" || fail "$f.svg missing or cut"
    [ "$(head -c 4 "$tmp/r/$f.png" | tail -c 3)" = PNG ] || fail "$f.png missing"
done
# the same report as before the engine (tests/data/repro-same.sh says what may differ)
if has tcs && has tcw && has gpuvi && has mesi && has ideal && has gpuvini; then
    bash "$root/tests/data/repro-same.sh" "$root/tests/data/repro-tc-tiny" "$tmp/report" "$sum" \
        "$root/repro/tc/report.ini" >"$tmp/same" || fail "$(cat "$tmp/same")"
fi
# the numbers are the runs': the inter tcw speedup is the HM of nol1/tcw cycles in results.csv
# (block main's nol1 and tcw: blocks strong-l2, lease-max and gs-alu run configurations of the
# same names with tc.strong_loads=l2, tc.lease_max=3200 and sm.alu_latency=opcodes, and the
# replicas on the inputs of seeds 2-5, the column two before the last)
awk -F, 'NR > 1 && $3 == "inter" && ($5 == "nol1" || $5 == "tcw") && $7 !~ /tc\.(strong_loads|lease_max)=|sm\.alu_latency=/ && $(NF - 2) == 1 { c[$2 "," $5] = $10 }
         END { for (k in c) { split(k, a, ","); if (a[2] == "tcw") { n++; s += c[k] / c[a[1] ",nol1"] } }
               if (n) printf "%.4f\n", n / s }' "$tmp/r/results.csv" >"$tmp/hm"
if has tcw; then
    want=$(cat "$tmp/hm")
    grep -q "^inter,tcw,$want," "$sum" || fail "inter tcw HM $want not in: $(cat "$sum")"
fi
# the tiny check (docs/repro.md): the numbers stored in repro/tc/results/tiny
bash "$root/tests/data/repro-tiny-same.sh" tc "$root/repro/tc/results/tiny" "$tmp/r" >"$tmp/tiny" ||
    fail "$(cat "$tmp/tiny")"
# resumable: a second repro runs nothing
"$bin" repro tc --size tiny --out "$tmp/r" >/dev/null 2>"$tmp/log" || fail "second repro"
grep -q "0 to run" "$tmp/log" || fail "second repro ran again: $(head -2 "$tmp/log")"
echo ok
