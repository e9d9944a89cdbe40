#!/usr/bin/env bash
# asan-cli.sh - runs one command-line test (tests/cli/NAME.sh) against a gpucoh built with
# ASan+UBSan (make test-asan), and fails it on any sanitizer report, whatever the test did
# with gpucoh's exit status: a test that expects exit 1 or 2, or that sends stderr to a file,
# would otherwise pass over a report. Two nets catch a report: every gpucoh process (sweep
# and repro start more) writes ASan's and LeakSanitizer's reports to its own file under a
# fresh folder (log_path), read once the test ends; and every sanitizer exits 86, which the
# test's gpucoh, a shim around the real binary, notes with its command line (gcc's UBSan
# ignores log_path and reports on stderr only, which a test may swallow). A sweep's child
# runs the real binary (/proc/self/exe): its UBSan exit is a failed run the sweep reports.
# GPUCOH_ASAN=1 lets a test shrink its iteration counts where that keeps what it covers
# (sanitized code runs several times slower).
# usage: bash asan-cli.sh <test.sh> <gpucoh-binary> <repo-root> [part]
# (part: one of the script's "# parts:", CMakeLists.txt)
set -u
test=$1; bin=$2; root=$3; part=${4:-}
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT

export GPUCOH_ASAN=1
# the binary behind the shim, for a test that needs gpucoh's own bytes (sweep-identity
# copies it to make a "rebuilt" binary)
export GPUCOH_REAL_BIN=$bin
# exitcode 86: a sanitizer's exit is never mistaken for one of gpucoh's (0-3)
export ASAN_OPTIONS="log_path=$reports/asan:exitcode=86:detect_leaks=1:strict_string_checks=1"
export UBSAN_OPTIONS="log_path=$reports/ubsan:print_stacktrace=1:halt_on_error=1:exitcode=86"
export LSAN_OPTIONS="exitcode=86"

mkdir "$reports/bin"
shim=$reports/bin/gpucoh
# the shim passes its stdin on and forwards the signals a test sends (sweep-basic
# interrupts a sweep; timeout stops a stuck command) to the real gpucoh
cat >"$shim" <<SHIM
#!/usr/bin/env bash
"$bin" "\$@" <&0 &
child=\$!
trap 'kill -TERM \$child' TERM
trap 'kill -INT \$child' INT
while :; do
    wait \$child
    rc=\$?
    kill -0 \$child 2>/dev/null || break
done
[ \$rc -eq 86 ] && printf '%s\\n' "gpucoh \$*" >"$reports/exit86.\$\$"
exit \$rc
SHIM
chmod +x "$shim"

bash "$test" "$shim" "$root" ${part:+"$part"}
rc=$?

found=0
for f in "$reports"/*; do
    [ -f "$f" ] || continue
    found=1
    case $(basename "$f") in
    exit86.*) echo "== a sanitizer stopped this command (its report went to its stderr):" ;;
    *) echo "== sanitizer report $(basename "$f"):" ;;
    esac
    cat "$f"
done
[ $found -eq 0 ] || { echo "FAIL: $(basename "$test"): sanitizer report(s) above"; exit 1; }
exit $rc
