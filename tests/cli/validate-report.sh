#!/usr/bin/env bash
# tools/validate_report.py (docs/validation.md): from gpucoh run statistics and
# a GPGPU-Sim CSV it writes gpucoh's CSV in the GPGPU-Sim columns (DRAM bytes
# read and written, summed over channels), the cycle ratio per workload (marked **
# outside +-25%), = where both count the same instructions, the Pearson
# correlation and mean absolute error per baseline, a pair whose check failed
# or that one side lacks left out and named, and the scatter plot; with
# --ablation NAME, GPGPU-Sim's BASE-NAME rows against gpucoh's BASE; several
# GPGPU-Sim files joined.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
/usr/bin/python3 -c 'import matplotlib' 2>/dev/null || { echo "SKIP: no python3-matplotlib"; exit 0; }

mkdir -p "$tmp/runs"
run() { # workload protocol cycles insts check_passed
    cat >"$tmp/runs/$1-$2.json" <<JSON
{"workload": "$1", "size": "tiny", "protocol": "$2", "cycles": $3, "thread_insts": $4,
 "l1_hit_rate": 0.5, "l2_hit_rate": 0.25, "check_passed": $5, "config": {"l2.line": "128"},
 "stats": {"gpu.dram[0].reads": 10, "gpu.dram[1].reads": 5, "gpu.dram[0].writes": 2,
           "gpu.dram[0].row_hits": 100}}
JSON
}
run a nol1 1000 500 true
run b nol1 3000 700 true
run c nol1 1500 900 true
run d nol1 800 100 false
run a rc 900 500 true
cat >"$tmp/gs.csv" <<'CSV'
# GPGPU-Sim test data
workload,size,baseline,cycles,thread_insts,l1_hit_rate,l2_hit_rate,dram_read_bytes,dram_write_bytes,check
a,tiny,nol1,1000,500,0,0.5,2048,1024,ok
b,tiny,nol1,2000,700,0,0.5,2048,1024,ok
c,tiny,nol1,2000,901,0,0.5,2048,1024,ok
d,tiny,nol1,800,100,0,0.5,2048,1024,ok
e,tiny,nol1,800,100,0,0.5,2048,1024,ok
a,tiny,rc,1000,500,0.5,0.5,2048,1024,ok
a,tiny,nol1-x,500,500,0,0.5,0,0,ok
b,tiny,nol1-x,3000,700,0,0.5,0,0,ok
b,tiny,nol1-x-y,6000,700,0,0.5,0,0,ok
CSV
/usr/bin/python3 "$root/tools/validate_report.py" --gpucoh-runs "$tmp/runs" --gpgpusim "$tmp/gs.csv" \
    --out "$tmp/out" >"$tmp/log" 2>&1 || fail "exited $?: $(cat "$tmp/log")"
md=$tmp/out/report.md
for f in report.md cycles.svg cycles.png gpucoh-tiny.csv; do
    [ -s "$tmp/out/$f" ] || fail "no $f: $(ls "$tmp/out")"
done
grep -qx 'a,tiny,nol1,1000,500,0.5,0.25,1920,256,ok' "$tmp/out/gpucoh-tiny.csv" \
    || fail "gpucoh CSV row: $(cat "$tmp/out/gpucoh-tiny.csv")"
grep -qx 'd,tiny,nol1,800,100,0.5,0.25,1920,256,WRONG' "$tmp/out/gpucoh-tiny.csv" \
    || fail "failed run's row: $(cat "$tmp/out/gpucoh-tiny.csv")"
grep -q '^| a | 1000 | 1000 | 1.00 | 500 = | 500 = | 50.0 / 0.0 | 25.0 / 50.0 | 2.1 / 3.0 |$' "$md" \
    || fail "row a: $(cat "$md")"
grep -q '^| b | 3000 | 2000 | 1.50 \*\* | 700 = | 700 = |' "$md" || fail "row b: $(cat "$md")"
grep -q '^| c | 1500 | 2000 | 0.75 | 900 | 901 |' "$md" || fail "row c: $(cat "$md")"
# nol1: a, b, c count; MAE = (0 + 0.5 + 0.25) / 3 = 25.0%; Pearson of
# (1000,2000,2000) against (1000,3000,1500) = 0.693
grep -q '^3 workloads: correlation of cycles 0.693, mean absolute error 25.0%, 1 outside +-25%.$' "$md" \
    || fail "nol1 summary: $(cat "$md")"
grep -q '^Left out: d (check: gpucoh WRONG, GPGPU-Sim ok), e (no gpucoh run).$' "$md" \
    || fail "left out: $(cat "$md")"
grep -q '^1 workloads: correlation of cycles nan, mean absolute error 10.0%, 0 outside +-25%.$' "$md" \
    || fail "rc summary: $(cat "$md")"

# an ablation: nol1-x against gpucoh's nol1 (a 1000 / 500, b 3000 / 3000);
# plain rows and the combined ablation x-y are not taken for it
/usr/bin/python3 "$root/tools/validate_report.py" --gpucoh-runs "$tmp/runs" --gpgpusim "$tmp/gs.csv" \
    --out "$tmp/abl" --ablation x >"$tmp/log3" 2>&1 || fail "ablation exited $?: $(cat "$tmp/log3")"
md=$tmp/abl/report.md
grep -q '^# gpucoh against GPGPU-Sim (size tiny, ablation `x`)$' "$md" || fail "ablation title: $(cat "$md")"
grep -q '^| a | 1000 | 500 | 2.00 \*\* |' "$md" || fail "ablation row a: $(cat "$md")"
grep -q '^| b | 3000 | 3000 | 1.00 |' "$md" || fail "ablation row b: $(cat "$md")"
grep -q '^Left out: c (no GPGPU-Sim run), d (no GPGPU-Sim run).$' "$md" \
    || fail "ablation left out: $(cat "$md")"
grep -q '^Left out: a (no GPGPU-Sim run).$' "$md" || fail "ablation rc: $(cat "$md")"

# two GPGPU-Sim files are joined: the second adds rc's ablation row
printf '%s\n' 'workload,size,baseline,cycles,thread_insts,l1_hit_rate,l2_hit_rate,dram_read_bytes,dram_write_bytes,check' \
    'a,tiny,rc-x,600,500,0.5,0.5,0,0,ok' >"$tmp/gs2.csv"
/usr/bin/python3 "$root/tools/validate_report.py" --gpucoh-runs "$tmp/runs" \
    --gpgpusim "$tmp/gs.csv" "$tmp/gs2.csv" --out "$tmp/abl2" --ablation x >"$tmp/log4" 2>&1 \
    || fail "two files exited $?: $(cat "$tmp/log4")"
grep -q '^| a | 900 | 600 | 1.50 \*\* |' "$tmp/abl2/report.md" || fail "joined rc row: $(cat "$tmp/abl2/report.md")"
grep -q '^| b | 3000 | 3000 | 1.00 |' "$tmp/abl2/report.md" || fail "joined nol1 row: $(cat "$tmp/abl2/report.md")"

# no runs: a clear error, not a traceback
mkdir "$tmp/empty"
/usr/bin/python3 "$root/tools/validate_report.py" --gpucoh-runs "$tmp/empty" --gpgpusim "$tmp/gs.csv" \
    --out "$tmp/out2" >"$tmp/log2" 2>&1 && fail "no runs accepted"
grep -q "no gpucoh runs in" "$tmp/log2" || fail "no-runs message: $(cat "$tmp/log2")"
echo PASS
