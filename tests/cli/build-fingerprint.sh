#!/usr/bin/env bash
# The build fingerprint (tools/source_fingerprint.cmake) covers what a run
# computes and nothing else: on a copy of the sources, an edit to a protocol's
# C file or to a workload's PTX changes it, and one to the report engine
# (src/report/, src/cli/cmd_repro.c) or to the reader of a run's results
# (src/sweep/sweep_result.[ch]) leaves it, so a change to how reproductions
# are reported re-renders stored runs instead of rerunning them; one to the
# sweep's runner (src/sweep/sweep.h) changes it
# (docs/sweep.md, "Stale results are rerun").
set -u
root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v cmake >/dev/null || { echo "skipped: no cmake"; exit 77; }
mkdir -p "$tmp/src/tools" "$tmp/src/litmus"
cp -r "$root/src" "$root/include" "$root/workloads" "$root/CMakeLists.txt" "$tmp/src/"
cp -r "$root/litmus/models" "$tmp/src/litmus/"
cp "$root/tools/embed.cmake" "$root/tools/source_fingerprint.cmake" "$tmp/src/tools/"
fingerprint() {
    cmake -DROOT="$tmp/src" -DOUT="$tmp/fp.h" "-DTOOLCHAIN=the same compiler" \
        -P "$tmp/src/tools/source_fingerprint.cmake" || fail "source_fingerprint.cmake failed"
    sed -n 's/^#define GPUCOH_BUILD_FINGERPRINT "\([0-9a-f]*\)"$/\1/p' "$tmp/fp.h"
}
base=$(fingerprint)
[ ${#base} -eq 16 ] || fail "no fingerprint: $(cat "$tmp/fp.h")"
edit() { echo "/* an edit */" >>"$tmp/src/$1"; }
for f in src/report/repro_text.c src/report/claim_expr.h src/cli/cmd_repro.c \
    src/sweep/sweep_result.c src/sweep/sweep_result.h; do
    edit "$f"
    [ "$(fingerprint)" = "$base" ] || fail "an edit to $f changed the fingerprint"
done
ptx=$(cd "$tmp/src" && ls workloads/*/*.ptx | head -1)
for f in src/coh/tc/tc_l1.c src/cli/cmd_run.c src/sweep/sweep.h "$ptx"; do
    [ -f "$tmp/src/$f" ] || fail "no $f in the sources"
    before=$(fingerprint)
    edit "$f"
    [ "$(fingerprint)" != "$before" ] || fail "an edit to $f left the fingerprint"
done
echo "ok: report engine edits keep $base; a protocol, a command and a workload's PTX change it"
