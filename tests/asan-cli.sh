#!/usr/bin/env bash
# asan-cli.sh - runs one command-line test (tests/cli/NAME.sh) against a gpucoh built with
# ASan+UBSan (make test-asan), and fails it on any sanitizer report, whatever the test did
# with gpucoh's exit status: a test that expects exit 1 or 2, or that sends stderr to a file,
# would otherwise pass over a report. Every gpucoh process the test starts (sweep and repro
# start more) writes its reports to its own file under a fresh folder (log_path), which is
# read once the test ends. GPUCOH_ASAN=1 lets a test shrink its iteration counts where that
# keeps what it covers (sanitized code runs several times slower).
# usage: bash asan-cli.sh <test.sh> <gpucoh-binary> <repo-root>
set -u
test=$1; bin=$2; root=$3
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT

export GPUCOH_ASAN=1
# exitcode 86: a sanitizer's exit is never mistaken for one of gpucoh's (0-3)
export ASAN_OPTIONS="log_path=$reports/asan:exitcode=86:detect_leaks=1:strict_string_checks=1"
export UBSAN_OPTIONS="log_path=$reports/ubsan:print_stacktrace=1:halt_on_error=1:exitcode=86"
export LSAN_OPTIONS="exitcode=86"

bash "$test" "$bin" "$root"
rc=$?

found=0
for f in "$reports"/*; do
    [ -f "$f" ] || continue
    found=1
    echo "== sanitizer report $(basename "$f"):"
    cat "$f"
done
[ $found -eq 0 ] || { echo "FAIL: $(basename "$test"): sanitizer report(s) above"; exit 1; }
exit $rc
