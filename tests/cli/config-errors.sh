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

# checks after parsing name the file:line (or --set) of the key at fault
bad_key() { # bad_key NAME INI-TEXT PATTERN [ARGS...]: config show exits 2 with NAME.ini:PATTERN
    local name=$1 text=$2 pat=$3; shift 3
    printf "$text" >"$tmp/$name.ini"
    expect_error "$name.ini:$pat" "$bin" config show --config "$tmp/$name.ini" "$@"
}
bad_key tclease '[coherence]\nprotocol = tcw\n[tc]\nlease = fixed:abc\n' \
    "4: tc.lease: 'fixed:abc' is not auto, predict or fixed:N"
bad_key tclease2 '[tc]\nlease = fixed:99999999999999999999\n' "2: tc.lease:"
bad_key tclong '[coherence]\nprotocol = tcs\n[tc]\nlease = fixed:2000000\n' \
    "4: tcs: a lease of 2000000 cycles: a write or fence may wait that long"
bad_key tcwlong '[tc]\nlease_max = 1048576\n[coherence]\nprotocol = tcw\n' \
    "2: tcw: a lease of 1048576 cycles"
bad_key smthreads '[sm]\nthreads = 1000\n' "2: sm.threads (1000) must be a multiple of 32"
bad_key rcclease '[rcc]\nlease = fixed:0\n' "2: rcc.lease: 'fixed:0' is not predict or fixed:N"
bad_key rccmin '[rcc]\nlease_max = 1024\nlease_min = 3\n' \
    "3: rcc.lease_min (3) and rcc.lease_max (1024) must be powers of two"
bad_key mesisms '[gpu]\nsms = 200\n[coherence]\nprotocol = mesi\n' \
    "2: mesi: gpu.sms = 200, but a sharer vector names at most 128 SMs"
bad_key visms '[coherence]\nprotocol = gpuvi\n\n[gpu]\nsms = 129\n' "5: gpuvi: gpu.sms = 129"
bad_key mesimshrs '[coherence]\nprotocol = mesi\n[l1]\nmshrs = 1\n' \
    "4: mesi: l1.mshrs = 1, but a miss that replaces an owned line needs 2"
bad_key vinidir '[coherence]\nprotocol = gpuvini\n[gpu]\nsms = 128\n[l1]\nsize = 64M\n[vi]\ndir_ratio = 1024\n' \
    "8: gpuvini: vi.dir_ratio = 1024 entries for each of the 67108864 L1 lines"
# a protocol's check names every key it depends on, so the line of the one the
# file set is named, not the protocol's: the directory's size (gpu.sms), the
# lease the starvation check would take for a hang (sim.starvation_cycles)
bad_key vinisms '[coherence]\nprotocol = gpuvini\n[gpu]\nsms = 128\n[l2]\nbanks = 1\n[l1]\nsize = 1G\n' \
    "4: gpuvini: vi.dir_ratio = 2 entries for each of the 1073741824 L1 lines"
bad_key tcstarve '[sim]\nstarvation_cycles = 50000\n[coherence]\nprotocol = tcw\n[tc]\nlease_max = 65536\n' \
    "6: tcw: a lease of 65536 cycles"
# the crossbar's sizes are bounded where they are parsed
bad_key flit '[noc]\nlatency_cycles = 4\nflit_bytes = 0\n' "3: noc.flit_bytes: 0 is out of range"
bad_key vcflits '[noc]\nvc_flits = 5000\n' "2: noc.vc_flits: 5000 is out of range"
bad_key stcepochs '[stc]\nepochs = 3\n' "2: stc.epochs (3) must be a power of two"
bad_key stcseb '[stc]\nseb_min = 6\nseb = 6\n' "3: stc.seb (6) must not split a line"
bad_key stcrange '[stc]\nseb = 40\n' "2: stc.seb (40) must lie in"
bad_key rccsc '[order]\nmodel = rmo\n[coherence]\nprotocol = rccsc\n' \
    "2: coherence.protocol = rccsc needs order.model = sc"
expect_error "^gpucoh: error: --set gpu.sms=129: ideal: gpu.sms = 129" \
    "$bin" config show --set coherence.protocol=ideal --set gpu.sms=129

# the resolved configuration is valid INI that round-trips
"$bin" config show --set l1.ways=8 --set coherence.protocol=nol1 >"$tmp/resolved.ini" || fail "config show"
grep -q '^ways = 8' "$tmp/resolved.ini" || fail "override not shown"
"$bin" config show --config "$tmp/resolved.ini" >"$tmp/again.ini" || fail "reload"
diff <(grep -v '^;' "$tmp/resolved.ini") <(grep -v '^;' "$tmp/again.ini") || fail "round trip differs"
"$bin" config show --help-keys | grep -q 'associativity' || fail "--help-keys lacks help text"
echo "config-errors: 1 passed, 0 failed"
