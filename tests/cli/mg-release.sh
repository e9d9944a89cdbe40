#!/usr/bin/env bash
# Release completion on the multi-GPM machine (docs/multi-gpu.md): reduce on
# the scaled 4 x 4 machine under hmg with markers in levels (the default) and
# with the thesis's one round; both compute the right sum, every bank reports
# its release rounds (all .sys: every SM's kernel end) and the time they took,
# and one round costs fewer cycles than four levels.
set -u
bin=$1
src=${2:-.}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
for r in levels thesis; do
    "$bin" run --workload reduce --size tiny --config "$src/configs/hmg-scaled.ini" --protocol hmg \
        --set mg.release=$r --quiet --stats "$tmp/$r.json" >"$tmp/$r.out" 2>&1 ||
        fail "reduce under hmg, mg.release=$r: $(tail -5 "$tmp/$r.out")"
done
python3 - "$tmp/levels.json" "$tmp/thesis.json" <<'PY' || exit 1
import json, sys
def load(p):
    d = json.load(open(p))
    t = {}
    for k, v in d["stats"].items():
        s = k.rsplit(".", 1)[-1]
        if s in ("l1_releases", "releases", "sys_rounds", "release_cycles", "marks_sent"):
            t[s] = t.get(s, 0) + v
    return sum(k["cycles"] for k in d["kernel_cycles"]), t
(cl, sl), (ct, st) = load(sys.argv[1]), load(sys.argv[2])
for name, s in (("levels", sl), ("thesis", st)):
    if s["l1_releases"] != 64 or s["sys_rounds"] != s["releases"] or s["release_cycles"] <= 0:
        sys.exit("FAIL: %s: 32 SMs x 2 banks of .sys kernel-end releases expected, not %s" % (name, s))
# 16 GPMs: one round sends 15 markers; four levels of 6 neighbours 6+36+216+1296
if st["marks_sent"] != 15 * st["releases"] or sl["marks_sent"] != 1554 * sl["releases"]:
    sys.exit("FAIL: markers per round: levels %s, thesis %s" % (sl, st))
if not ct < cl:
    sys.exit("FAIL: one round (%d cycles) not faster than levels (%d)" % (ct, cl))
PY
"$bin" run --workload reduce --size tiny --protocol hmg --set mg.release=one >"$tmp/bad.out" 2>&1
[ $? -eq 2 ] && grep -q "mg.release: 'one' is not one of levels thesis" "$tmp/bad.out" ||
    fail "a bad mg.release: $(cat "$tmp/bad.out")"
echo "mg-release: passed"
