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
# ini_replace OLD NEW: the toy's report.ini as first copied ($tmp/ini), with
# its first line containing OLD replaced by NEW (the declaration-error tests)
ini=$tmp/root/repro/toy/report.ini
cp "$ini" "$tmp/ini"
ini_replace() {
    local n; n=$(grep -n -m1 -F -- "$1" "$tmp/ini" | cut -d: -f1)
    [ -n "$n" ] || fail "no line '$1'"
    awk -v n="$n" -v new="$2" 'NR == n { print new; next } { print }' "$tmp/ini" >"$ini"
}
