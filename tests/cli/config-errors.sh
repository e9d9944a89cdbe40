#!/usr/bin/env bash
# Bad configuration input names file:line (or the --set) and exits 2; the
# resolved configuration prints back as INI that loads again.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

expect_error() { # expect_error PATTERN CMD...
    local pat=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    [ $rc -eq 2 ] || fail "'$*' exited $rc, expected 2: $(cat "$tmp/err")"
    grep -q -- "$pat" "$tmp/err" || fail "'$*': expected '$pat' in: $(cat "$tmp/err")"
}

printf '[l1]\nways = 4\nbogus = 3\n' >"$tmp/unknown.ini"
expect_error "unknown.ini:3: unknown option 'l1.bogus'" "$bin" config show --config "$tmp/unknown.ini"

printf '[l2]\n\nbanks = many\n' >"$tmp/type.ini"
expect_error "type.ini:3: l2.banks: 'many' is not a valid integer" "$bin" config show --config "$tmp/type.ini"

printf '[l1]\nways = 0\n' >"$tmp/range.ini"
expect_error "range.ini:2: l1.ways: 0 is out of range" "$bin" config show --config "$tmp/range.ini"

printf '[sm]\nsched = fifo\n' >"$tmp/enum.ini"
expect_error "enum.ini:2: sm.sched: 'fifo' is not one of lrr gto" "$bin" config show --config "$tmp/enum.ini"

printf 'ways = 4\n' >"$tmp/nosection.ini"
expect_error "nosection.ini:1: 'ways' is outside any \[section\]" "$bin" config show --config "$tmp/nosection.ini"

printf '[l1\nways = 4\n' >"$tmp/syntax.ini"
expect_error "syntax.ini:1:" "$bin" config show --config "$tmp/syntax.ini"

expect_error "missing.ini: cannot open" "$bin" config show --config "$tmp/missing.ini"
expect_error "unknown option 'l1.nope'" "$bin" config show --set l1.nope=1
expect_error "expected section.key=value" "$bin" config show --set l1.ways
expect_error "unknown protocol 'magic'" "$bin" config show --protocol magic
expect_error "l1.line (64) and l2.line (128) must be equal" "$bin" config show --set l1.line=64
printf '[sm]\nwarps = 40\nwarp_size = 64\n' >"$tmp/waves.ini"
expect_error "waves.ini:2: sm.warps (40) must be at most 32 with sm.warp_size = 64" \
    "$bin" config show --config "$tmp/waves.ini"
expect_error "sm.warp_size (48) must be 32 (warps) or 64" "$bin" config show --set sm.warp_size=48

# the resolved configuration is valid INI that round-trips
"$bin" config show --set l1.ways=8 --set coherence.protocol=nol1 >"$tmp/resolved.ini" || fail "config show"
grep -q '^ways = 8' "$tmp/resolved.ini" || fail "override not shown"
"$bin" config show --config "$tmp/resolved.ini" >"$tmp/again.ini" || fail "reload"
diff <(grep -v '^;' "$tmp/resolved.ini") <(grep -v '^;' "$tmp/again.ini") || fail "round trip differs"
"$bin" config show --help-keys | grep -q 'associativity' || fail "--help-keys lacks help text"
echo "config-errors: 1 passed, 0 failed"
