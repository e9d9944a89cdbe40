#!/usr/bin/env bash
# Every input error names its location: INI errors the line they belong to,
# checks after parsing the key's file:line (or --set), spec and PTX errors
# their line; keys set twice are errors; unprintable bytes are escaped;
# valid PTX that gpucoh does not model is "unsupported", and only the kernels
# using it are refused, when launched.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# a stuck command is stopped after 60 s (ten times that under ASan, whose code runs
# several times slower: tests/asan-cli.sh)
limit=60
[ "${GPUCOH_ASAN:-0}" = 1 ] && limit=600
n=0

expect_error() { # expect_error PATTERN CMD...: exit 2 and the fixed string PATTERN on stderr
    local pat=$1; shift
    timeout $limit "$bin" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    [ $rc -eq 2 ] || fail "'$*' exited $rc, expected 2: $(tail -2 "$tmp/err")"
    grep -qF -- "$pat" "$tmp/err" || fail "'$*': expected '$pat' in: $(cat "$tmp/err")"
    n=$((n + 1))
}

# INI: checks after parsing name the key's line; config show prints nothing bad
printf '[l1]\nways = 4\n[coherence]\nprotocol = magic\n' >"$tmp/proto.ini"
expect_error "proto.ini:4: coherence.protocol: unknown protocol 'magic'" \
    config show --config "$tmp/proto.ini"
printf '[l1]\n\nsize = 1000\n' >"$tmp/size.ini"
expect_error "size.ini:3: l1: size 1000 is not a multiple of ways (4) x line size (128)" \
    config show --config "$tmp/size.ini"
[ ! -s "$tmp/out" ] || fail "config show printed a configuration it rejects"
expect_error "--set l1.size=1000: l1: size 1000" config show --set l1.size=1000
printf '[l2]\nline = 64\n' >"$tmp/line.ini"
expect_error "line.ini:2: l1.line (128) and l2.line (64) must be equal" \
    config show --config "$tmp/line.ini"
# limits checked when a kernel is launched name the key's file:line or --set too
printf '[sm]\nwarps = 4\n' >"$tmp/warps.ini"
expect_error "warps.ini:2: kernel saxpy: a CTA of 256 threads (8 warps) does not fit in an SM of" \
    run --workload saxpy --size tiny --config "$tmp/warps.ini"
expect_error "--set sm.regs=1024: kernel saxpy: a CTA needs 5120 registers" \
    run --workload saxpy --size tiny --set sm.regs=1024
# a machine so slow that the progress watchdogs would stop correct runs as
# deadlocks is refused before it runs (was: exit 3 with a dump)
expect_error "--set l2.latency_cycles=100000: one memory request may take 400682 core cycles" \
    run --workload saxpy --size tiny --set l2.latency_cycles=100000
printf '[noc]\njitter_cycles = 100000\n[sim]\nwatchdog_cycles = 0\n' >"$tmp/jitter.ini"
expect_error "jitter.ini:2: one memory request may take 401282 core cycles on this machine (L2, network and DRAM latencies and jitter), and sim.starvation_cycles (1000000)" \
    run --workload saxpy --size tiny --config "$tmp/jitter.ini"
# INI syntax: the line at fault, and what is wrong with it
printf '[l1\nways = 4\n' >"$tmp/header.ini"
expect_error "header.ini:1: section header '[l1' lacks its closing ']'" \
    config show --config "$tmp/header.ini"
printf '[l1]\nways = 4\nsize = 16K\nways = 8\n' >"$tmp/twice.ini"
expect_error "twice.ini:4: l1.ways is set twice (first at line 2)" \
    config show --config "$tmp/twice.ini"
printf '[l1]\nways = 4\x01\xfe\n' >"$tmp/binary.ini"
expect_error "binary.ini:2: l1.ways: '4\\x01\\xfe' is not a valid integer" \
    config show --config "$tmp/binary.ini"
grep -q $'\x01' "$tmp/err" && fail "a raw control byte reached the terminal"
printf '[l1]\nways = 4\0\n' >"$tmp/nul.ini"
expect_error "nul.ini:2: NUL byte" config show --config "$tmp/nul.ini"
{ printf '[l1]\nways = '; head -c 300 /dev/zero | tr '\0' 4; printf '\n'; } >"$tmp/long.ini"
expect_error "long.ini:2: line longer than" config show --config "$tmp/long.ini"

# launch specs: the line of the duplicated ptx directive
cp "$root/examples/vecadd.ptx" "$tmp/"
printf 'ptx vecadd.ptx\nbuffer a f32 8\nptx vecadd.ptx\n' >"$tmp/dup.spec"
expect_error "dup.spec:3: kernel 'vecadd' of $tmp/vecadd.ptx is already defined by" \
    exec "$tmp/dup.spec" --functional
printf 'ptx vecadd.ptx\n\x01\xfe\n' >"$tmp/binary.spec"
expect_error '\x01\xfe' exec "$tmp/binary.spec" --functional
grep -q $'\x01' "$tmp/err" && fail "a raw control byte reached the terminal"

# PTX: unmodelled instructions are "unsupported", named, and refused only when launched
errs=$root/examples/errors
expect_error "texture.spec:5: kernel sample cannot run: $errs/texture.ptx:34: unsupported instruction 'tex.2d.v4.f32.f32'" \
    exec "$errs/texture.spec" --functional
expect_error "mixed.ptx:40: unsupported instruction 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32'" \
    exec "$errs/unsupported-mma.spec" --functional
expect_error "unsupported-malloc.spec:5: kernel heap cannot run: $errs/mixed.ptx:56: call of 'malloc', which has no body in this module" \
    exec "$errs/unsupported-malloc.spec" --functional
"$bin" exec "$errs/mixed.spec" --functional >"$tmp/out" 2>&1 ||
    fail "fill in a module with unsupported kernels did not run: $(tail -3 "$tmp/out")"
grep -q "checks          passed" "$tmp/out" || fail "mixed.spec: $(tail -3 "$tmp/out")"
"$bin" exec "$errs/mixed.spec" >"$tmp/out" 2>&1 || fail "mixed.spec (timing): $(tail -3 "$tmp/out")"
# a word that is not PTX at all is still an error of the whole module, at its line
sed 's/\tret;/\tfrobnicate.u32 %r1;\n\tret;/' "$root/examples/vecadd.ptx" >"$tmp/typo.ptx"
printf 'ptx typo.ptx\nbuffer a f32 8\nlaunch vecadd grid 1 block 8 args a a a 8\n' >"$tmp/typo.spec"
expect_error "typo.ptx:" exec "$tmp/typo.spec" --functional
grep -qF "unknown instruction 'frobnicate.u32' (not a PTX instruction)" "$tmp/err" ||
    fail "typo: $(cat "$tmp/err")"
# folders and binary files given where a text file belongs
mkdir -p "$tmp/adir" "$tmp/dir.ptx"
expect_error "adir: cannot read: is a folder, expected a file" exec "$tmp/adir"
expect_error "adir: cannot read: is a folder, expected a file" sweep "$tmp/adir"
printf 'ptx %s\nlaunch k grid 1 block 1\n' "$tmp/dir.ptx" >"$tmp/dirptx.spec"
expect_error "dirptx.spec:1: cannot read $tmp/dir.ptx: is a folder" exec "$tmp/dirptx.spec"
printf 'ptx %s/examples/vecadd.ptx\nbuffer a f32 4 = file(%s)\n' "$root" "$tmp/adir" >"$tmp/dd.spec"
printf 'buffer b f32 4\nbuffer c f32 4\nlaunch vecadd grid 1 block 4 args a b c n=4\n' >>"$tmp/dd.spec"
expect_error "dd.spec:2: $tmp/adir is not a regular file" exec "$tmp/dd.spec"
printf 'ptx %s/examples/vecadd.ptx\nlaunch vecadd\0 grid 1 block 4\n' "$root" >"$tmp/nul.spec"
expect_error "nul.spec:2: NUL byte: not a text file" exec "$tmp/nul.spec"
printf '.version 8.0\n\0' >"$tmp/nul.ptx"
printf 'ptx %s\nlaunch k grid 1 block 1\n' "$tmp/nul.ptx" >"$tmp/nulptx.spec"
expect_error "nul.ptx:2: NUL byte: not a text file" exec "$tmp/nulptx.spec"
# array dimensions whose product or literal passes what a variable may hold
bigvar() { # bigvar DIMS: a launch spec of a module declaring .const .b8 big DIMS
    printf '.version 7.0\n.target sm_75\n.address_size 64\n.const .b8 big%s;\n' "$1" >"$tmp/big.ptx"
    printf 'ptx %s\n' "$tmp/big.ptx" >"$tmp/big.spec"
}
bigvar '[1000][1000][1000]'
expect_error "big.ptx:4: 'big' is larger than 64 MB, the most a variable may take" exec "$tmp/big.spec"
bigvar '[99999999999999999999999]'
expect_error "big.ptx:4: bad array dimension of 'big'" exec "$tmp/big.spec"
printf 'PTX x\n"a"\n{\nx=0;\0\n}\n' >"$tmp/nul.litmus"
expect_error "nul.litmus:4: NUL byte: not a text file" litmus "$tmp/nul.litmus"
# a condition on a register its thread never writes (nor initialises) is a
# typo that would silently flip the verdict: refused where it is named
printf 'PTX r3\n{\nx=0;\n}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st.weak x, 1 | ld.weak r0, x ;\nexists\n(P1:r0 == 1 /\\\n P1:r3 != 1)\n' >"$tmp/unwritten.litmus"
expect_error "unwritten.litmus:9: condition names P1:r3, which P1 never writes" \
    litmus --protocol rc "$tmp/unwritten.litmus"
expect_error "unwritten.litmus:9: condition names P1:r3, which P1 never writes" \
    litmus --explain "$tmp/unwritten.litmus"
# ... but an initialised register the program never writes is a constant
sed 's/^x=0;$/x=0; P1:r3=2;/' "$tmp/unwritten.litmus" >"$tmp/constant.litmus"
"$bin" litmus --explain "$tmp/constant.litmus" >"$tmp/out" 2>"$tmp/err" ||
    fail "an initialised register in the condition: $(cat "$tmp/err")"
# numbers a spec cannot mean: constants that do not fit the elements, launches
# past CUDA's grid and block limits
vspec() { printf 'ptx %s/examples/vecadd.ptx\n%s\n' "$root" "$1" >"$tmp/v.spec"; }
vspec 'buffer a u8 4 = values(300, 1, 2, -1)'
expect_error "v.spec:2: values(): value 1 (300) does not fit in u8" exec "$tmp/v.spec"
vspec 'buffer a s32 2 = values(1, 2.5)'
expect_error "v.spec:2: values(): value 2 (2.5) is not an integer, and the elements are s32" \
    exec "$tmp/v.spec"
vspec 'buffer a u16 2
check a == values(1, 65536)'
expect_error "v.spec:3: values(): value 2 (65536) does not fit in u16" exec "$tmp/v.spec"
vspec 'buffer a f32 4
launch vecadd grid 2147483648 block 4 args a a a n=4'
expect_error "v.spec:3: grid 2147483648 is out of range [1, 2147483647]" exec "$tmp/v.spec"
vspec 'buffer a f32 4
launch vecadd grid 1,65536 block 4 args a a a n=4'
expect_error "v.spec:3: grid 65536 is out of range [1, 65535]" exec "$tmp/v.spec"
vspec 'buffer a f32 4
launch vecadd grid 1 block 1,1,65 args a a a n=4'
expect_error "v.spec:3: block 65 is out of range [1, 64]" exec "$tmp/v.spec"
echo "input-errors: $n errors located, 2 runs of a partly unsupported module"
