#!/usr/bin/env bash
# parts.sh - sourced at the end of a command-line test that is split into parts
# (its line "# parts: A B ...": CMakeLists.txt makes each part a test of its own,
# cli/NAME-A, so that none needs more than about 100 s of CPU). Runs the script's
# function part_A (a part's '-' read as '_'), or every part in order when no part
# is named, as a plain `bash tests/cli/NAME.sh BIN ROOT` does.
# usage: source "$root/tests/data/parts.sh" "$0" "${3:-}"
parts_script=$1
parts_all=$(sed -n 's/^# parts: //p' "$parts_script")
for parts_one in ${2:-$parts_all}; do
    declare -F "part_${parts_one//-/_}" >/dev/null ||
        { echo "FAIL: $parts_script has no part '$parts_one' (its parts: $parts_all)"; exit 2; }
    "part_${parts_one//-/_}"
done
