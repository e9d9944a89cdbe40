#!/usr/bin/env bash
# The watchdog on the thesis-size machine (configs/hmg-4x4.ini): sssp at size
# paper under nhcc, input seed 3, goes about 200 000 core cycles with nothing
# completing while one bank takes its invalidations' acknowledgements one per
# L2 cycle. Under a watchdog of 100 000 (half that: the stop must not rest on
# a margin of a few thousand cycles) it stops (exit 3) and the dump shows the
# acknowledgements queued at that bank's sysnet port, every one ready; under
# the machine's own (2 000 000, with its measurement in the file) the run
# completes and its check passes.
set -u
bin=$1
src=${2:-.}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
run=("$bin" run --workload sssp --size paper --input-seed 3 --protocol nhcc
     --config "$src/configs/hmg-4x4.ini" --quiet)
"${run[@]}" --set sim.watchdog_cycles=100000 >"$tmp/stop.out" 2>&1
rc=$?
[ $rc = 3 ] || fail "under a 100 000-cycle watchdog: exit $rc, 3 expected: $(tail -3 "$tmp/stop.out")"
grep -q "^gpucoh: simulator fault: watchdog: no memory operation completed" "$tmp/stop.out" ||
    fail "no watchdog fault: $(head -3 "$tmp/stop.out")"
python3 - "$tmp/stop.out" <<'PY' || exit 1
import re, sys
text = open(sys.argv[1]).read()
now = int(re.search(r"^--- state at t=(\d+) ps", text, re.M).group(1))
q = re.findall(r"^(\S+) \(multi-GPM L2\).*\n(?:  release.*\n)*  from the sysnet, vnet 1: (\d+) "
               r"messages, the first ready at (\d+) ps, the last at (\d+) ps \(now (\d+) ps\)", text, re.M)
if not q:
    sys.exit("FAIL: the dump shows no bank's sysnet backlog")
bank, n, first, last, at = max(q, key=lambda r: int(r[1]))
if bank != "gpu0.gpm0.l2[2]" or int(n) < 1000 or int(at) != now or not int(first) <= int(last) < now:
    sys.exit("FAIL: the largest backlog: %s, %s messages ready %s..%s at %s (stop at %d)"
             % (bank, n, first, last, at, now))
PY
"${run[@]}" >"$tmp/run.out" 2>&1 || fail "under the machine's watchdog: exit $?: $(tail -3 "$tmp/run.out")"
grep -q "^  check           passed" "$tmp/run.out" || fail "check: $(grep check "$tmp/run.out")"
echo "ok"
