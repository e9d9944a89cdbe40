#!/bin/bash
# exec-errors.sh - `gpucoh exec` input errors: a malformed spec, PTX with an
# instruction gpucoh cannot run, a kernel given the wrong arguments, and bad
# usage each stop with file:line (or the option) and exit 2.
# usage: exec-errors.sh GPUCOH REPO
set -u
bin=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- output:"; cat "$tmp/out"; exit 1; }
expect2() { # expect2 PATTERN ARGS...: exit 2 and PATTERN in the output
    local pat=$1
    shift
    "$bin" exec "$@" >"$tmp/out" 2>&1
    local rc=$?
    [ $rc -eq 2 ] || fail "exec $*: exit $rc, expected 2"
    grep -qE -- "$pat" "$tmp/out" || fail "exec $*: no match for '$pat'"
}

expect2 "errors/malformed\.spec:5: launch needs both 'grid' and 'block'" \
    "$root/examples/errors/malformed.spec" --functional
expect2 "errors/texture\.ptx:34: " "$root/examples/errors/texture.spec" --functional

cp "$root/examples/vecadd.ptx" "$tmp/"
printf 'ptx vecadd.ptx\nbuffer a f32 8\n\nlaunch vecadd grid 1 block 8 args a a 8\n' >"$tmp/count.spec"
expect2 "count\.spec:4: kernel vecadd takes 4 parameters, 3 arguments given" "$tmp/count.spec" \
    --functional
printf 'ptx vecadd.ptx\nbuffer a f32 8\nlaunch saxpy grid 1 block 8 args a a a 8\n' >"$tmp/size.spec"
expect2 "size\.spec:3: kernel saxpy: argument 1 is buffer a \(an 8-byte pointer\) but parameter 1 is 4 bytes" \
    "$tmp/size.spec" --functional
printf 'ptx vecadd.ptx\nbuffer a f32 8\nlaunch vecadd grid 1 block 8 args a a a 1.5\n' >"$tmp/int.spec"
expect2 "int\.spec:3: kernel vecadd: argument 4 is 1.5 but parameter 4 is an integer" \
    "$tmp/int.spec" --functional
printf 'ptx vecadd.ptx\nbuffer a f32 8\nlaunch vecad grid 1 block 8 args a a a 8\n' >"$tmp/name.spec"
expect2 "name\.spec:3: no kernel named 'vecad' in the PTX \(kernels: vecadd, saxpy\)" \
    "$tmp/name.spec" --functional
printf 'ptx missing.ptx\n' >"$tmp/missing.spec"
expect2 "missing\.spec:1: cannot read .*missing\.ptx" "$tmp/missing.spec" --functional

expect2 "no spec file given" --functional
expect2 "unknown option '--bogus'|unknown option --bogus" "$root/examples/vecadd.spec" --bogus
expect2 "--dump needs NAME=FILE" "$root/examples/vecadd.spec" --functional --dump c
expect2 "cannot read" "$tmp/nonexistent.spec" --functional
echo ok
