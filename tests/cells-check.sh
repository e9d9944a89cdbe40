# Sourced by the coverage tests of tests/cli/*-cells.sh: each runs gpucoh
# commands that write --coverage files, then asserts which table cells fired
# (docs/protocols/README.md, "Coverage"). The sourcing script defines bin, tmp
# and fail.
#
# run ARG...: `gpucoh ARG... --coverage $tmp/cov.N`, which must exit 0 (the
# output's last lines are printed and the test fails otherwise).
n=0
run() {
    n=$((n + 1))
    "$bin" "$@" --coverage "$tmp/cov.$n" >"$tmp/out.$n" 2>&1
    local rc=$?
    [ $rc -eq 0 ] || {
        tail -n 20 "$tmp/out.$n"
        fail "$*: exit $rc"
    }
}

# check_cells REGEX CUT WHAT [UNREACHED [DEAD]]: the cells of every coverage
# file so far whose key matches REGEX, summed over the runs and named without
# their first CUT characters, must each have fired, but those in UNREACHED
# (races no run here produces: a hit is noted, not failed) and DEAD (cells that
# seem impossible: a hit fails). Every listed cell must be defined. Prints
# "ok: ..." naming WHAT.
check_cells() {
    local regex=$1 cut=$2 what=$3 unreached=${4:-} dead=${5:-} bad=0 cell hits c
    cat "$tmp"/cov.* | awk -v re="$regex" -v cut="$cut" '$1 ~ re { c[substr($1, cut + 1)] += $2 }
        END { for (k in c) print k, c[k] }' | sort >"$tmp/cells"
    [ -s "$tmp/cells" ] || fail "no cell of $what in the coverage"
    while read -r cell hits; do
        case " $(echo $unreached) " in
        *" $cell "*)
            [ "$hits" -eq 0 ] ||
                case " $(echo $dead) " in
                *" $cell "*)
                    echo "$cell fired $hits times; listed as dead"
                    bad=$((bad + 1))
                    ;;
                *) echo "note: $cell fired $hits times; it may come off the list" ;;
                esac ;;
        *) [ "$hits" -gt 0 ] || {
            echo "$cell never fired"
            bad=$((bad + 1))
        } ;;
        esac
    done <"$tmp/cells"
    for c in $unreached; do
        grep -q "^$c " "$tmp/cells" || { echo "$c is listed but not defined"; bad=$((bad + 1)); }
    done
    [ $bad -eq 0 ] || fail "$bad cells"
    local total
    total=$(wc -l <"$tmp/cells")
    echo "ok: $((total - $(echo $unreached | wc -w))) of $total cells of $what fired in $n runs"
}
