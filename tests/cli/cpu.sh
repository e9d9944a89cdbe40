#!/usr/bin/env bash
# CPU cores (docs/cpu.md): a CPU kernel and a GPU kernel launched together
# synchronise through memory in both directions (examples/cpugpu.spec) under
# the paper's four static designs (SDD, SDG: DeNovo CPU L1s; SMD, SMG: MESI
# CPU L1s, whose shared copies the LLC invalidates), the CPU cores really run
# (their instructions, store buffer and L1 statistics), statistics are
# deterministic, and what cannot work fails with a located error (exit 2).
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cfg=(--config "$root/configs/spandex.ini")
spec=$root/examples/cpugpu.spec
n=0
for design in spandex-d:denovo spandex-g:denovo spandex-d:mesi spandex-g:mesi; do
    p=${design%:*} dev=${design#*:}
    "$bin" exec "$spec" "${cfg[@]}" --protocol $p --set cpu.device=$dev --check \
        --stats "$tmp/$p.json" >"$tmp/o" 2>&1 || { cat "$tmp/o"; fail "cpugpu under $design"; }
    grep -q "checks *passed" "$tmp/o" || fail "cpugpu $design: no pass line"
    for k in 0 15; do
        v=$(grep -Po "\"cpu\[$k\]\.thread_insts\":\t\K[0-9]+" "$tmp/$p.json")
        [ "${v:-0}" -gt 500 ] || fail "$design: cpu[$k] ran ${v:-no} instructions"
    done
    sb=$(grep -Po '"cpu\[0\]\.sb_stores":\t\K[0-9]+' "$tmp/$p.json")
    [ "${sb:-0}" -gt 0 ] || fail "$design: no store went through cpu[0]'s store buffer"
    if [ $dev = mesi ]; then
        inv=$(grep -Po '"cpu\[[0-9]+\]\.l1\.invalidations":\t\K[0-9]+' "$tmp/$p.json" |
            awk '{s += $1} END {print s + 0}')
        [ "$inv" -gt 0 ] || fail "$design: no MESI CPU L1 was invalidated"
    fi
    n=$((n + 1))
done
"$bin" exec "$spec" "${cfg[@]}" --protocol spandex-g --set cpu.device=mesi --check \
    --stats "$tmp/again.json" >/dev/null 2>&1 || fail "rerun"
cmp -s <(grep -v 'wall_seconds\|_per_second' "$tmp/spandex-g.json") <(grep -v 'wall_seconds\|_per_second' "$tmp/again.json") ||
    fail "statistics differ between two runs of one configuration"
n=$((n + 1))
# the MESI device L1 is a table of its own in both protocols
for p in spandex-d spandex-g; do
    "$bin" protocol show $p --format count | grep -Eq "^$p +spandex.MESI-L1 +6 " ||
        fail "protocol show $p: no MESI device L1"
    "$bin" protocol show $p --format md | cmp -s - "$root/docs/protocols/$p.md" ||
        fail "docs/protocols/$p.md differs from gpucoh protocol show $p"
done
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
