#!/usr/bin/env bash
# Long target: tests/cli/stress-mg.sh at 1 M DRF stress episodes per
# multi-GPM protocol (2 GPUs x 2 GPMs, small caches, a tiny directory, 4 KB
# pages, the invariant observers on).
set -u
STRESS_MG_EPISODES=${STRESS_MG_EPISODES:-1000000} exec bash "$(dirname "$0")/../cli/stress-mg.sh" "$1"
