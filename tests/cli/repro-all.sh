#!/usr/bin/env bash
# gpucoh repro all --size tiny: every built reproduction runs, DIR/index.html
# and DIR/README.md carry each one's claims and plots, the headline table has
# a row per line of repro/headlines.csv with a number, the direction, the
# effect ratio, the size and the evidence, or `not built`, it comes first in
# the page, coloured by the effect, and a
# reproduction whose sweep names a protocol this gpucoh lacks is listed as not
# built with no numbers. The page is loaded in headless Chromium: its script
# marks <body data-plots="ok N"> when every <img> loaded with a size (read
# back with --dump-dom), page errors fail the test, and the screenshot must
# not be blank. Chromium is Debian's `chromium` (make deps installs it).
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# the repository's reproductions plus one that is not built (a protocol
# gpucoh does not have): GPUCOH_ROOT points at a copy of repro/ beside links
# to the rest of the repository
mkdir -p "$tmp/root"
for f in "$root"/*; do [ "$(basename "$f")" = repro ] || ln -s "$f" "$tmp/root/"; done
cp -r "$root/repro" "$tmp/root/"
# repro hmg's 504 runs at tiny would cost minutes: two of its six workloads,
# without the replicas (the block seed, last in the file)
sed -i 's/^workloads mg$/workloads conv rnn/' "$tmp/root/repro/hmg/hmg.sweep"
sed -i '/^sweep seed$/,$d' "$tmp/root/repro/hmg/hmg.sweep"
sed -i '/^replicas = /d' "$tmp/root/repro/hmg/report.ini"
# (and without the claim that names the other four apps)
sed -i -e '/^\[claim ml-gains-most\]$/,/^$/d' -e 's/ ml-gains-most//' "$tmp/root/repro/hmg/report.ini"
mkdir -p "$tmp/root/repro/zz-unbuilt"
cat >"$tmp/root/repro/zz-unbuilt/s.sweep" <<'SWEEP'
sweep main
workloads vecadd
protocols rc zz-none=zz-none
SWEEP
printf 'figure,set,app,metric,baseline,design,value,note\n' >"$tmp/root/repro/zz-unbuilt/paper.csv"
cat >"$tmp/root/repro/zz-unbuilt/report.ini" <<'INI'
[reproduction]
title = a paper whose designs are not built
paper = Spandex
sweep = s.sweep
[set basic]
baseline = rc
[figure f]
title = f
kind = bars
metric = speedup
set = basic
designs = rc zz-none
INI
# and a placeholder whose declaration says it is not built (it needs no sweep)
mkdir -p "$tmp/root/repro/zz-placeholder"
printf '[reproduction]\ntitle = a paper not started\npaper = ZZ\nbuilt = no\n' \
    >"$tmp/root/repro/zz-placeholder/report.ini"
GPUCOH_ROOT=$tmp/root "$bin" repro list >"$tmp/list" || fail "repro list"
grep -q "^tc  .*spec 002" "$tmp/list" || fail "list: $(cat "$tmp/list")"
grep -q "^zz-unbuilt .*; not built: needs protocol zz-none" "$tmp/list" || fail "list: $(cat "$tmp/list")"
GPUCOH_ROOT=$tmp/root "$bin" repro nosuch >/dev/null 2>"$tmp/e"
[ $? -eq 2 ] && grep -q "repro nosuch: no such reproduction" "$tmp/e" || fail "unknown name: $(cat "$tmp/e")"
# the runs the cli/repro-tiny-NAME tests made (GPUCOH_REPRO_TINY: ctest's fixture
# repro-tiny, CMakeLists.txt) are reused rather than run again: the sweep skips a
# run whose results exist with an unchanged identity (binary, configuration,
# workload); tc's and stc's, and every run when the variable is unset, run here
for d in ${GPUCOH_REPRO_TINY:+"$GPUCOH_REPRO_TINY"/*/runs}; do
    [ -d "$d" ] || continue
    r=$(basename "$(dirname "$d")")
    mkdir -p "$tmp/all/$r" && cp -r "$d" "$tmp/all/$r/" || fail "cannot copy $d"
done
GPUCOH_ROOT=$tmp/root "$bin" repro all --size tiny -j 2 --out "$tmp/all" >"$tmp/out" 2>"$tmp/log"
rc=$?
[ $rc -eq 0 ] || fail "repro all exited $rc: $(tail -5 "$tmp/log")"
grep -q "^repro zz-unbuilt: not built: needs protocol zz-none" "$tmp/out" || fail "unbuilt: $(cat "$tmp/out")"
for r in tc l1-study chopin stc sc hmg spandex getm; do
    grep -q "^repro $r: .* runs (0 failed); claims: " "$tmp/out" || fail "no line for $r: $(cat "$tmp/out")"
    [ -s "$tmp/all/$r/report.txt" ] || fail "no $r/report.txt"
    grep -q "<h2 id=\"$r\">" "$tmp/all/index.html" || fail "index.html has no $r"
    grep -q "^## $r: " "$tmp/all/README.md" || fail "README.md has no $r"
done
grep -q "Not built: needs protocol zz-none" "$tmp/all/index.html" || fail "index.html: unbuilt not listed"
grep -q "^repro zz-placeholder: not built: its report.ini says built = no" "$tmp/out" || fail "placeholder: $(cat "$tmp/out")"
# the headline table: every row of headlines.csv; a row with a number has the
# paper's direction or not, the effect ratio, the size and the evidence (a
# miss - the wrong direction, or an effect ratio outside 0.5-2 - names the
# [explain] ablation and its effect, "NAME: A → B", or is "unexplained";
# anything else "—", or its explain if one is declared)
nh=$(tail -n +2 "$root/repro/headlines.csv" | grep -c .)
sed -n '/^== Headline table/,/^$/p' "$tmp/out" | grep -E '^[A-Za-z]+ +[0-9]{3}[ab]? ' >"$tmp/rows"
[ "$(wc -l <"$tmp/rows")" -eq "$nh" ] || fail "headline table has $(wc -l <"$tmp/rows") rows, headlines.csv $nh"
num='[0-9]+\.[0-9]{2} +(✓|✗|n/a) +(-?[0-9]+\.[0-9]{2}|n/a) +(tiny|frame) +(unexplained|—|[a-z0-9.-]+: (-?[0-9]+\.[0-9]{2} → -?[0-9]+\.[0-9]{2}|not measured))$'
grep -qE "^HMG +004b +Fig5.9 +all +speedup_gmean +nhcc +hmg +1\.18 +[0-9]+\.[0-9]{2} " "$tmp/rows" ||
    fail "HMG row: $(grep '^HMG ' "$tmp/rows")"
grep -qE "^TC +002 +Fig7a +inter +speedup_hm +nol1 +tcw +1\.85 +$num" "$tmp/rows" || fail "TC row: $(grep '^TC ' "$tmp/rows")"
for p in TC STC; do
    grep -E "^$p " "$tmp/rows" | grep -qvE " $num" && fail "a $p row has no number, effect or evidence: $(grep "^$p " "$tmp/rows")"
done
# CHOPIN's rows come from its frames runs (repro/chopin: the split-frame model, not the memory system)
grep -qE '^CHOPIN +004b +Fig6.12 +all +speedup_gmean +duplication +chopin-compsched +1\.25 +1\.19 +✓ +0\.77 +frame +—$' "$tmp/rows" ||
    fail "CHOPIN row: $(grep '^CHOPIN ' "$tmp/rows")"
# the evidence follows from the direction and the effect ratio
awk '$9 ~ /^[0-9.]+$/ {
        miss = $10 == "✗" || ($11 != "n/a" && ($11 < 0.5 || $11 > 2))
        if ($11 == "n/a") next
        explained = $13 ~ /:$/
        if (miss ? !explained && $13 != "unexplained" : !explained && $13 != "—") {
            print "wrong evidence: " $0; bad = 1 } }
     END { exit bad }' "$tmp/rows" >"$tmp/ev" || fail "evidence does not follow the effect: $(cat "$tmp/ev")"
[ "$(grep -cE " $num" "$tmp/rows")" -ge 30 ] || fail "fewer than 30 headline rows with numbers: $(cat "$tmp/rows")"
grep -q "<h2 id=\"chopin\">" "$tmp/all/index.html" && grep -q 'src="chopin/fig6.16.png"' "$tmp/all/index.html" ||
    fail "index.html lacks CHOPIN's plots"
# the HTML report shows the headline table first, a row per headline, coloured by the effect
# (the offset of the first match of a string in a file)
at() { grep -b -o -m1 -F -- "$1" "$2" | head -1 | cut -d: -f1; }
first() { # the headline table before the list of reproductions and before the first one
    local t u c; t=$(at 'id="headline-table"' "$1"); u=$(at '<ul>' "$1"); c=$(at '<h2 id="chopin">' "$1")
    [ -n "$t" ] && [ -n "$u" ] && [ -n "$c" ] && [ "$t" -lt "$u" ] && [ "$t" -lt "$c" ]
}
first "$tmp/all/index.html" || fail "index.html: the headline table is not first"
sed -n '/id="headline-table"/,/<\/table>/p' "$tmp/all/index.html" | grep -c '<tr class="' | grep -qx "$nh" ||
    fail "index.html: the headline table has not $nh rows"
grep -q '<tr class="effect-good">' "$tmp/all/index.html" && grep -q '<tr class="effect-wrong">' "$tmp/all/index.html" ||
    fail "index.html: no coloured headline rows"
grep -q '^## Headline table' "$tmp/all/README.md" || fail "README.md has no headline table"
# the page opens with the provenance (version, commit, date, size, command), the
# warning that tiny is a smoke test and the scoreboard, before the headline table
page=$tmp/all/index.html
grep -qE '<tr><td>gpucoh</td><td>version [0-9]+\.[0-9]+' "$page" || fail "provenance: no version"
grep -qE '<tr><td>commit</td><td>([0-9a-f]{12}(-dirty)?|unknown \(not a git checkout\))</td>' "$page" ||
    fail "provenance: no commit"
grep -qE '<tr><td>date</td><td>20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z</td>' "$page" || fail "provenance: no date"
grep -q '<tr><td>size</td><td>tiny</td>' "$page" || fail "provenance: no size"
grep -qF "<tr><td>command</td><td><code>gpucoh repro all --size tiny -j 2 --out $tmp/all</code>" "$page" ||
    fail "provenance: no command"
grep -q 'id="size-warning"><strong>Size tiny is a smoke test.</strong>' "$page" || fail "no smoke-test warning"
for x in 'id="provenance"' 'id="size-warning"' 'id="scoreboard-table"'; do
    [ "$(at "$x" "$page")" -lt "$(at 'id="headline-table"' "$page")" ] || fail "$x is not before the headline table"
done
# the scoreboard: a row per reproduction; tc's counts its claims and its 12
# headlines, and shows its first (TC-Weak over NO-L1, 1.85) under the paper's names
sed -n '/id="scoreboard-table"/,/<\/table>/p' "$page" >"$tmp/score"
nr=$(ls -d "$tmp"/root/repro/*/ | wc -l)
[ "$(grep -c '^<tr><td><a href="#' "$tmp/score")" -eq "$nr" ] || fail "scoreboard: not $nr rows: $(cat "$tmp/score")"
nc=$(grep -c '^\[claim ' "$root/repro/tc/report.ini")
grep -qE "^<tr><td><a href=\"#tc\">tc</a></td><td><a href=\"#spec-002\">spec 002</a> .*</td><td>tiny</td><td class=\"num\">[0-9]+ of $nc</td><td class=\"num\">[0-9]+ of 12</td><td>Fig7a speedup_hm: TC-Weak over NO-L1</td><td class=\"num\">1\.85</td><td class=\"num effect-[a-z]+\">[0-9]+\.[0-9]{2}</td><td class=\"effect-[a-z]+\">(✓|✗)</td><td class=\"num effect-[a-z]+\">-?[0-9]+\.[0-9]{2}</td></tr>$" "$tmp/score" ||
    fail "scoreboard: tc row: $(grep '#tc"' "$tmp/score")"
grep -q '<tr><td><a href="#zz-unbuilt">zz-unbuilt</a></td>.*not built: needs protocol zz-none' "$tmp/score" ||
    fail "scoreboard: the unbuilt reproduction"
grep -q '^## Scoreboard' "$tmp/all/README.md" && grep -q '^## Provenance' "$tmp/all/README.md" ||
    fail "README.md has no scoreboard or provenance"
# every "spec 00x" links to the bibliography's entry (docs/papers.md), which the page ends with
grep -q '<tr id="spec-004b"><td>004b</td><td>Xiaowei Ren</td>' "$page" || fail "no bibliography entry for spec 004b"
grep -q '<td>HMG</td><td><a href="#spec-004b">spec 004b</a></td>' "$page" || fail "headline spec not linked"
grep -o 'spec 00[0-9][ab]\?' "$page" | wc -l >"$tmp/nspec"
[ "$(grep -o '>spec 00[0-9][ab]\?</a>' "$page" | wc -l)" -eq "$(cat "$tmp/nspec")" ] ||
    fail "a \"spec 00x\" in the page is not linked: $(grep -o '.\{20\}[^>]spec 00[0-9][ab]\?' "$page" | head -3)"
# the papers' design names in the tables and legends, the size in every plot title
grep -q '<td>TC-Weak speedup over NO-L1</td>' "$page" || fail "tc's table does not use the paper's design names"
grep -q '^fig7a,bh,TC-Weak,,' "$tmp/all/tc/plot-data.csv" || fail "tc's legend is not the paper's names"
for f in "$tmp"/all/*/figures.csv; do
    tail -n +2 "$f" | grep -vE '\[size (tiny|frame)\]"?,' | grep . && fail "$f: a plot title without its size"
done
# navigation: a bar of links to every reproduction, and each one links its neighbours
grep -q '<nav id="papers-nav"><a href="#scoreboard">scoreboard</a><a href="#headlines">headlines</a><a href="#chopin">chopin</a>' "$page" ||
    fail "no navigation bar"
grep -q '<p class="prevnext">&larr; <a href="#chopin">chopin</a> &middot; <a href="#scoreboard">scoreboard</a> &middot; <a href="#hmg">hmg</a> &rarr;</p>' "$page" ||
    fail "getm's section does not link its neighbours"
# summary.csv: every number of paper.csv with gpucoh's, the effect ratio and the direction
grep -q '^figure,set,app,metric,baseline,design,paper,gpucoh,effect_ratio,direction$' "$tmp/all/tc/summary.csv" ||
    fail "tc/summary.csv has no effect table: $(cat "$tmp/all/tc/summary.csv")"
grep -qE '^Fig7a,inter,,speedup_hm,nol1,tcw,1.85,[0-9.]+,-?[0-9.]+,(yes|no)$' "$tmp/all/tc/summary.csv" ||
    fail "tc/summary.csv: no Fig7a row"
# RCC's SC stalls (Fig. 3.9) and expired loads (Fig. 3.7, right) come from every run's statistics
for f in "Fig. 3.9 (top)" "Fig. 3.9 (bottom)" "Fig. 3.7 (right)"; do
    awk -v f="$f" 'index($0, f) { on = 1 } on && /^bh / { print; exit }' "$tmp/all/rcc/report.txt" |
        grep -qE '^bh +1\.00 +[0-9]+\.[0-9]+' || fail "rcc: $f has no bh row with numbers"
done
grep -c "<img " "$tmp/all/index.html" | grep -qx 89 ||
    fail "expected 89 plots in index.html (8 of them stc's, 9 rcc's, 9 sc's, 12 hmg's, 6 spandex's, 17 getm's, 17 chopin's), not $(grep -c "<img " "$tmp/all/index.html")"

# the page in a browser
chrome=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chrome" ] || fail "no chromium (Debian package chromium; make deps installs it)"
flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --allow-file-access-from-files
       --user-data-dir="$tmp/chrome" --virtual-time-budget=10000 --window-size=1280,2400)
page="file://$tmp/all/index.html"
timeout 120 "$chrome" "${flags[@]}" --dump-dom "$page" >"$tmp/dom" 2>"$tmp/chrome.log" ||
    fail "chromium --dump-dom failed: $(tail -5 "$tmp/chrome.log")"
first "$tmp/dom" || fail "the rendered page does not show the headline table first"
grep -q 'data-plots="ok 89"' "$tmp/dom" || fail "plots did not all load: $(grep -o 'data-plots="[^"]*"' "$tmp/dom")"
grep -q 'data-errors=' "$tmp/dom" && fail "page error: $(grep -o 'data-errors="[^"]*"' "$tmp/dom")"
timeout 120 "$chrome" "${flags[@]}" --screenshot="$tmp/shot.png" "$page" >/dev/null 2>>"$tmp/chrome.log" ||
    fail "chromium --screenshot failed: $(tail -5 "$tmp/chrome.log")"
# a blank page compresses to almost nothing; plots and tables do not
size=$(stat -c %s "$tmp/shot.png")
[ "$size" -gt 60000 ] || fail "screenshot is $size bytes: blank?"
[ -n "${GPUCOH_KEEP_SCREENSHOT:-}" ] && cp "$tmp/shot.png" "$GPUCOH_KEEP_SCREENSHOT"
echo ok
