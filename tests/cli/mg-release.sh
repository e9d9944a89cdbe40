#!/usr/bin/env bash
# Release completion on the multi-GPM machine (docs/multi-gpu.md): reduce on
# the scaled 4 x 4 machine under hmg with markers in levels, the thesis's one
# round and the counted round (the default); all compute the right sum, every
# bank reports its release rounds (all .sys: every SM's kernel end) and the
# time they took, and one round, answered at once or counted, costs fewer
# cycles than four levels. (tests/unit/640-mg-release.c shows the thesis's
# round unsafe and the other two safe.)
set -u
bin=$1
src=${2:-.}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
for r in levels thesis counted; do
    "$bin" run --workload reduce --size tiny --config "$src/configs/hmg-scaled.ini" --protocol hmg \
        --set mg.release=$r --quiet --stats "$tmp/$r.json" >"$tmp/$r.out" 2>&1 ||
        fail "reduce under hmg, mg.release=$r: $(tail -5 "$tmp/$r.out")"
done
python3 - "$tmp/levels.json" "$tmp/thesis.json" "$tmp/counted.json" <<'PY' || exit 1
import json, sys
def load(p):
    d = json.load(open(p))
    t = {}
    for k, v in d["stats"].items():
        s = k.rsplit(".", 1)[-1]
        if s in ("l1_releases", "releases", "sys_rounds", "release_cycles", "marks_sent"):
            t[s] = t.get(s, 0) + v
    return sum(k["cycles"] for k in d["kernel_cycles"]), t
(cl, sl), (ct, st), (cc, sc) = load(sys.argv[1]), load(sys.argv[2]), load(sys.argv[3])
for name, s in (("levels", sl), ("thesis", st), ("counted", sc)):
    if s["l1_releases"] != 64 or s["sys_rounds"] != s["releases"] or s["release_cycles"] <= 0:
        sys.exit("FAIL: %s: 32 SMs x 2 banks of .sys kernel-end releases expected, not %s" % (name, s))
# 16 GPMs: one round sends 15 markers; four levels of 6 neighbours 6+36+216+1296
if (st["marks_sent"] != 15 * st["releases"] or sc["marks_sent"] != 15 * sc["releases"] or
        sl["marks_sent"] != 1554 * sl["releases"]):
    sys.exit("FAIL: markers per round: levels %s, thesis %s, counted %s" % (sl, st, sc))
if not ct < cl or not cc < cl:
    sys.exit("FAIL: one round (%d cycles), counted (%d) not faster than levels (%d)" % (ct, cc, cl))
PY
"$bin" run --workload reduce --size tiny --protocol hmg --set mg.release=one >"$tmp/bad.out" 2>&1
[ $? -eq 2 ] && grep -q "mg.release: 'one' is not one of levels thesis counted" "$tmp/bad.out" ||
    fail "a bad mg.release: $(cat "$tmp/bad.out")"
echo "mg-release: passed"
