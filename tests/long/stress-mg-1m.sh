#!/usr/bin/env bash
# Long target: tests/cli/stress-mg.sh at 1 M DRF stress episodes per
# multi-GPM protocol (2 GPUs x 2 GPMs, small caches, a tiny directory, 4 KB
# pages, the invariant observers on), under both safe release completions:
# counted (the default) and levels. About 2.5 minutes of CPU per protocol
# and release, 30 in all, unloaded.
set -u
STRESS_MG_EPISODES=${STRESS_MG_EPISODES:-1000000} STRESS_MG_RELEASES=${STRESS_MG_RELEASES:-counted levels} \
    exec bash "$(dirname "$0")/../cli/stress-mg.sh" "$1"
