#!/usr/bin/env bash
# Random-mutation test of every input format: 1000 mutations (tools/mutate.c,
# seeded: the same every run) of the committed PTX, litmus tests, launch specs
# and INI configurations, each read by gpucoh as a user would give it, with a
# 10 s limit. Every run must end with exit 0, 1 or 2: a crash, a simulator
# fault (3), any other status or a timeout fails, and the input is kept.
# usage: mutate-inputs.sh GPUCOH REPO [MUTATIONS]
set -u
bin=$1; root=$2; per_kind=${3:-1000}
mutate=$(dirname "$bin")/mutate
[ -x "$mutate" ] || { echo "FAIL: $mutate is not built"; exit 1; }
tmp=$(mktemp -d)
keep=$(dirname "$bin")/mutate-failures
cp "$root"/examples/*.ptx "$tmp/" # the specs' PTX, found next to the mutated spec
printf 'ptx m.ptx\nbuffer z u32 1\nprint z\n' >"$tmp/load-ptx.spec"
failures=0

run_kind() { # run_kind KIND EXT FILES...: mutate round-robin over FILES, run each
    local kind=$1 ext=$2; shift 2
    local files=("$@") counts="" i rc
    declare -A seen=()
    for ((i = 0; i < per_kind; i++)); do
        local src=${files[i % ${#files[@]}]} m=$tmp/m.$ext
        "$mutate" "$((i + 1))" "$src" "$m" || { echo "FAIL: mutate $src"; exit 1; }
        case $kind in
        ptx) timeout 10 "$bin" exec "$tmp/load-ptx.spec" --dry-run ;;
        litmus) timeout 10 "$bin" litmus --dry-run "$m" ;;
        spec) timeout 10 "$bin" exec "$m" --dry-run ;;
        ini) timeout 10 "$bin" config show --config "$m" ;;
        esac >/dev/null 2>"$tmp/err"
        rc=$?
        seen[$rc]=$((${seen[$rc]:-0} + 1))
        if [ $rc -gt 2 ]; then
            failures=$((failures + 1))
            mkdir -p "$keep"
            cp "$m" "$keep/$kind-$((i + 1)).$ext"
            echo "FAIL: $kind mutation $((i + 1)) of $src: exit $rc$([ $rc -eq 124 ] &&
                echo ' (timeout)'): $(tail -1 "$tmp/err")"
        fi
    done
    for rc in $(printf '%s\n' "${!seen[@]}" | sort -n); do counts="$counts exit $rc: ${seen[$rc]},"; done
    echo "mutate $kind: $per_kind mutations of ${#files[@]} files;${counts%,}"
}

run_kind ptx ptx "$root"/workloads/*/*.ptx "$root"/examples/*.ptx "$root"/tests/ptx/*.ptx
mapfile -t suite < <(find "$root/litmus/ptx" -name '*.litmus' | sort)
run_kind litmus litmus "$root"/tests/litmus/*.litmus "${suite[@]}"
run_kind spec spec "$root"/examples/*.spec
run_kind ini ini "$root"/configs/*.ini
rm -rf "$tmp"
[ $failures -eq 0 ] || { echo "FAIL: $failures inputs kept in $keep"; exit 1; }
echo "mutate-inputs: $((4 * per_kind)) mutated inputs, every exit status in {0, 1, 2}"
