#!/usr/bin/env bash
# Claims that cannot fail are refused before anything runs (claim_lint.c):
# `gpucoh repro NAME --lint` evaluates every claim on counterfactual data and
# names each refused claim with report.ini:LINE, exit 2. The cases, added to a
# copy of repro/tc/report.ini: a one-sided "within", a design compared with
# itself (one that cannot fail, one that cannot hold), a threshold no speedup
# can cross, a tautology for a quantity that is never negative, `a <= b or
# a > b`, "about" without a band, and a band checked on one side only. A
# two-sided band claim passes. Every reproduction of the repository passes
# `repro all --lint`, which runs nothing.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

GPUCOH_ROOT=$root "$bin" repro all --lint --size tiny >"$tmp/all" 2>"$tmp/e" ||
    fail "repro all --lint: $(cat "$tmp/e")"
for r in chopin getm hmg l1-study rcc sc spandex stc tc; do
    grep -q "^repro $r: [0-9]* claims, each can hold and can fail" "$tmp/all" ||
        fail "repro all --lint: no line for $r: $(cat "$tmp/all")"
done
"$bin" chopin repro --lint >"$tmp/o" 2>"$tmp/e" && grep -q "^repro chopin: " "$tmp/o" ||
    fail "chopin repro --lint: $(cat "$tmp/o" "$tmp/e")"

mkdir -p "$tmp/root/repro/bad"
cp "$root/repro/tc/tc.sweep" "$root/repro/tc/paper.csv" "$tmp/root/repro/bad/"
ini=$tmp/root/repro/bad/report.ini
cp "$root/repro/tc/report.ini" "$ini"
cat >>"$ini" <<'INI'

[claim one-sided-within]
text = inter: TCW within 10% of MESI
paper = (a test)
expr = speedup(inter, tcw, mesi) <= 1.10

[claim itself]
text = all: TCW at least as fast as TCW
paper = (a test)
expr = speedup(all, tcw, tcw) >= 1

[claim itself-faster]
text = all: TCW faster than TCW
paper = (a test)
expr = speedup(all, tcw, tcw) > 1

[claim uncrossable]
text = all: TCW's speedup over TCS above -1
paper = (a test)
expr = speedup(all, tcw, tcs) > -1

[claim never-negative]
text = all: TCW's invalidation bytes are not negative
paper = (a test)
expr = stat(all, tcw, bytes_INV) >= 0

[claim either-way]
text = inter: TCW is slower than MESI, or faster
paper = (a test)
expr = speedup(inter, tcw) <= speedup(inter, mesi) or speedup(inter, tcw) > speedup(inter, mesi)

[claim about-no-band]
text = inter: TCW about 1.85x NO-L1
paper = (a test)
expr = 1.8 <= speedup(inter, tcw) <= 1.9

[claim band-one-side]
text = inter: TCW about 1.85x NO-L1
paper = (a test)
band = 1.8 1.9
expr = speedup(inter, tcw) >= 1.8

[claim band-ok]
text = inter: TCW about 1.85x NO-L1
paper = (a test)
band = 1.8 1.9
expr = 1.8 <= speedup(inter, tcw) <= 1.9
INI
line() { grep -n -F "[claim $1]" "$ini" | cut -d: -f1; }
GPUCOH_ROOT=$tmp/root "$bin" repro bad --lint --size tiny >"$tmp/o" 2>"$tmp/e"
rc=$?
[ $rc -eq 2 ] || fail "--lint exited $rc, expected 2: $(cat "$tmp/o" "$tmp/e")"
expect() { # claim, what the message says
    grep -qF "report.ini:$(line "$1"): claim '$1' $2" "$tmp/e" ||
        fail "$1: expected report.ini:$(line "$1"): claim '$1' $2 in: $(cat "$tmp/e")"
}
expect one-sided-within "cannot fail on one side: it holds with tcw's statistics x 1.12"
expect itself "cannot fail"
expect itself-faster "cannot hold"
expect uncrossable "cannot fail"
expect never-negative "cannot fail"
expect either-way "cannot fail"
expect about-no-band "says 'about' but declares no band"
expect band-one-side "cannot fail on one side"
grep -q "band-ok" "$tmp/e" && fail "band-ok refused: $(cat "$tmp/e")"
n=$(grep -c "^gpucoh: error: .*report.ini:[0-9]*: claim" "$tmp/e")
[ "$n" -eq 8 ] || fail "expected 8 refused claims, got $n: $(cat "$tmp/e")"
# the same check refuses the reproduction before it runs
GPUCOH_ROOT=$tmp/root "$bin" repro bad --size tiny --out "$tmp/out" >/dev/null 2>"$tmp/e2"
[ $? -eq 2 ] && grep -qF "claim 'itself' cannot fail" "$tmp/e2" || fail "repro bad: $(cat "$tmp/e2")"
[ ! -e "$tmp/out" ] || fail "repro bad ran something"
echo ok
