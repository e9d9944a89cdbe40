#!/usr/bin/env bash
# elapsed.sh - run a command, each line of its output prefixed with the time since
# it started ([m:ss]), and exit with its status. `make test` runs ctest under it,
# so its "N/M Test #k" lines show both tests done of total and time elapsed.
#   tools/elapsed.sh ctest -LE long -j 2 --output-on-failure
set -u
start=$SECONDS
"$@" 2>&1 | while IFS= read -r line; do
    t=$((SECONDS - start))
    printf '[%d:%02d] %s\n' $((t / 60)) $((t % 60)) "$line"
done
exit "${PIPESTATUS[0]}"
