#!/usr/bin/env bash
# One GPU of one GPM is today's single GPU: with topology.gpus = gpms = 1 set
# explicitly, every statistic of several protocols and workloads is
# bit-identical to what the single-GPU machine gave before the machine builder
# learnt topologies (digests in tests/data/hmg-ref/stats-1x1.sha256: cycles,
# instructions, traffic, per-kernel cycles and every named statistic; the
# echoed configuration is left out). Taken from main at f2d5fee, then retaken
# once the networks gained the hop_flits statistic, after checking that every
# other statistic of the 12 runs was still equal to f2d5fee's; mesi's three
# again once its L1 gained the prefetch rows (0 here), after checking that
# the digest without them was the one before; all twelve again once the SM's
# warp memory instructions (mem_insts.*) were in the statistics, after the
# same check; all twelve again with the SM's order_holds_on_write and
# order_hold_cycles_on_write (Fig. 3.1b), order_held_lanes and mem_lanes.*,
# after the same check.
# A statistics change meant elsewhere shows here too: regenerate the digests
# with tests/data/hmg-ref/digest.py from a build of the commit before it.
set -e
GPUCOH=${1:-./build/gpucoh}
SRC=${2:-.}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
while read -r proto wl want; do
    "$GPUCOH" run --workload "$wl" --size tiny --protocol "$proto" --quiet \
        --set topology.gpus=1 --set topology.gpms=1 --stats "$T/s.json" >/dev/null
    got=$(python3 "$SRC/tests/data/hmg-ref/digest.py" "$T/s.json")
    if [ "$got" != "$want" ]; then
        echo "FAIL: $proto $wl: statistics differ from the single-GPU machine's"
        fail=1
    fi
done < "$SRC/tests/data/hmg-ref/stats-1x1.sha256"
[ $fail = 0 ] && echo "ok: 1x1 topology bit-identical for $(wc -l < "$SRC/tests/data/hmg-ref/stats-1x1.sha256") runs"
exit $fail
