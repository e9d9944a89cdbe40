#!/bin/bash
# run-progress.sh - the progress line of one run (stderr): --progress prints
# it when stderr is not a terminal, one line per kernel at its end naming the
# kernel, 100% of its CTAs, cycles, thread instructions and the rate; it is
# off by default there and with --no-progress; on a terminal (a pty from
# script(1)) it is on by default and rewritten in place; the statistics are
# the same with and without it; --progress with --no-progress is a usage
# error. Before, the line had no instructions or CTA percentage and there
# was no --progress or --no-progress (exit 2).
# usage: bash run-progress.sh <gpucoh-binary> <repo-root>
set -u
bin=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- stderr:"; cat "$tmp/err"; exit 1; }

"$bin" run --workload mvt --size tiny --protocol rc --progress --stats "$tmp/on.json" \
    >/dev/null 2>"$tmp/err" || fail "--progress: exit $?"
python3 - "$tmp/err" "$tmp/on.json" <<'PY' || fail "progress lines"
import json, re, sys
lines = [l for l in open(sys.argv[1]).read().splitlines() if l.startswith("[gpucoh]")]
d = json.load(open(sys.argv[2]))
assert "\033" not in open(sys.argv[1]).read(), "terminal escapes in a file"
ends = [l for l in lines if "100% of" in l]
assert len(ends) == 2, f"{len(ends)} kernel-end lines, want 2: {lines}"
pat = re.compile(r"^\[gpucoh\] (\w+) \(kernel (\d)\): 100% of (\d+) CTAs, (\d+) cycles, "
                 r"([0-9.]+) M thread insts, \d+ cycles/s$")
insts = []
for i, l in enumerate(ends):
    m = pat.match(l)
    assert m, f"line {l!r}"
    assert m.group(1) == d["kernel_cycles"][i]["kernel"], l
    assert int(m.group(2)) == i + 1, l
    assert int(m.group(3)) > 0
    insts.append(float(m.group(5)))
assert abs(insts[-1] - d["thread_insts"] / 1e6) < 0.006, f"{insts[-1]} M vs {d['thread_insts']}"
PY
"$bin" run --workload mvt --size tiny --protocol rc --no-progress --stats "$tmp/off.json" \
    >/dev/null 2>"$tmp/err" || fail "--no-progress: exit $?"
grep -q "gpucoh\]" "$tmp/err" && fail "--no-progress printed progress"
"$bin" run --workload mvt --size tiny --protocol rc --stats "$tmp/def.json" >/dev/null 2>"$tmp/err" ||
    fail "default: exit $?"
grep -q "gpucoh\]" "$tmp/err" && fail "progress printed into a file without --progress"
python3 - "$tmp/on.json" "$tmp/off.json" "$tmp/def.json" <<'PY' || fail "statistics changed by --progress"
import json, sys
d = [json.load(open(f)) for f in sys.argv[1:]]
for x in d:
    del x["speed"]
assert d[0] == d[1] == d[2]
PY
# on a terminal (script(1) gives a pty): on by default, rewritten in place
if command -v script >/dev/null; then
    script -qec "'$bin' run --workload mvt --size tiny --protocol rc --stats '$tmp/tty.json' >/dev/null" \
        /dev/null >"$tmp/err" 2>&1 || fail "on a tty: exit $?"
    grep -q $'\r\033\[K\[gpucoh\] mvt_kernel2 (kernel 2): 100% of' "$tmp/err" ||
        fail "no progress line rewritten in place on a terminal"
    python3 - "$tmp/on.json" "$tmp/tty.json" <<'PY' || fail "statistics changed on a terminal"
import json, sys
d = [json.load(open(f)) for f in sys.argv[1:]]
for x in d:
    del x["speed"]
assert d[0] == d[1]
PY
fi
"$bin" run --workload mvt --size tiny --progress --no-progress >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "--progress --no-progress: not exit 2"
grep -q "contradict" "$tmp/err" || fail "no message"
echo "run-progress: ok"
