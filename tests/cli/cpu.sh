#!/usr/bin/env bash
# CPU cores (docs/cpu.md): a CPU kernel and a GPU kernel launched together
# synchronise through memory in both directions (examples/cpugpu.spec) under
# both GPU devices, the CPU cores really run (their instructions, store
# buffer and L1 statistics), statistics are deterministic, and what cannot
# work fails with a located error (exit 2).
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cfg=(--config "$root/configs/spandex.ini")
spec=$root/examples/cpugpu.spec
n=0
for p in spandex-d spandex-g; do
    "$bin" exec "$spec" "${cfg[@]}" --protocol $p --check --stats "$tmp/$p.json" >"$tmp/o" 2>&1 ||
        { cat "$tmp/o"; fail "cpugpu under $p"; }
    grep -q "checks *passed" "$tmp/o" || fail "cpugpu $p: no pass line"
    for k in 0 15; do
        v=$(grep -Po "\"cpu\[$k\]\.thread_insts\":\t\K[0-9]+" "$tmp/$p.json")
        [ "${v:-0}" -gt 500 ] || fail "$p: cpu[$k] ran ${v:-no} instructions"
    done
    sb=$(grep -Po '"cpu\[0\]\.sb_stores":\t\K[0-9]+' "$tmp/$p.json")
    [ "${sb:-0}" -gt 0 ] || fail "$p: no store went through cpu[0]'s store buffer"
    n=$((n + 1))
done
"$bin" exec "$spec" "${cfg[@]}" --check --stats "$tmp/again.json" >/dev/null 2>&1 || fail "rerun"
cmp -s <(grep -v 'wall_seconds\|_per_second' "$tmp/spandex-d.json") <(grep -v 'wall_seconds\|_per_second' "$tmp/again.json") ||
    fail "statistics differ between two runs of one configuration"
n=$((n + 1))
cp "$root/examples/cpugpu.ptx" "$tmp/"
# errors: each located, exit 2
expect_err() { # expected-text, command...
    local want=$1; shift
    "$@" >"$tmp/e" 2>&1; rc=$?
    [ $rc -eq 2 ] || { cat "$tmp/e"; fail "exit $rc, not 2, for: $*"; }
    grep -q -- "$want" "$tmp/e" || { cat "$tmp/e"; fail "no '$want' in the error"; }
    n=$((n + 1))
}
expect_err "need the timing machine" "$bin" exec "$spec" --functional
expect_err "no CPU cores" "$bin" exec "$spec" "${cfg[@]}" --set cpu.cores=0
expect_err "needs a protocol with CPU devices" "$bin" exec "$spec" "${cfg[@]}" --protocol rc
w() { printf '%s\n' "ptx cpugpu.ptx" "buffer d s32 16" "$@" >"$tmp/bad.spec"; }
w "launch cpu_side on cpu grid 1 block 2 args d d d d d n=1"
expect_err "bad.spec:3: a launch on the CPU runs one thread per core" "$bin" exec "$tmp/bad.spec" "${cfg[@]}"
w "launch gpu_side grid 1 block 1 args d d d d n=1 &" "launch gpu_side grid 1 block 1 args d d d d n=1"
expect_err "bad.spec:4: this launch runs together with line 3's on the same device" "$bin" exec "$tmp/bad.spec" "${cfg[@]}"
w "launch gpu_side grid 1 block 1 args d d d d n=1 &"
expect_err "bad.spec:3: the launch ends in '&' but no launch follows" "$bin" exec "$tmp/bad.spec" "${cfg[@]}"
w "launch gpu_side grid 1 block 1 args d d d d n=1 &" "check d = 0"
expect_err "bad.spec:4: line 3's launch ends in '&'" "$bin" exec "$tmp/bad.spec" "${cfg[@]}"
w "launch gpu_side on tpu grid 1 block 1 args d d d d n=1"
expect_err "bad.spec:3: expected cpu or gpu after 'on'" "$bin" exec "$tmp/bad.spec" "${cfg[@]}"
echo "cpu: $n passed, 0 failed"
