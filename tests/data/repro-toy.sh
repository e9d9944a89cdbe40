# Sourced by the tests of the report engine's declarations (repro-explain,
# repro-calibration, repro-store): a scratch project root holding only the
# made-up reproduction of tests/data/repro-explain (one workload, NO-COH over
# NO-L1), with the real tools and configs, so that gpucoh runs it as
# `repro toy`. Expects $bin and $root; sets $tmp (removed on exit), fail(),
# run() (gpucoh with GPUCOH_ROOT at the scratch root) and cyc() (the cycles of
# configuration $1 with settings $2 in $tmp/r/results.csv).
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$tmp/root"
cp -r "$root/tests/data/repro-explain/repro" "$tmp/root/"
ln -s "$root/tools" "$tmp/root/tools"
ln -s "$root/configs" "$tmp/root/configs"
run() { GPUCOH_ROOT=$tmp/root "$bin" "$@"; }
cyc() { awk -F, -v c="$1" -v s="$2" 'NR > 1 && $5 == c && $7 == s { print $10 }' "$tmp/r/results.csv"; }
