#!/usr/bin/env bash
# Long target: tests/cli/litmus-causality.sh's causality shapes at 20 000
# iterations under every protocol that promises PTX (the default test runs
# 2 000, to stay within its time: README.md, "Test time"; about five minutes
# of CPU, measured 2026-12-02).
set -u
bin=$1; root=$2
GPUCOH_CAUSALITY_ITERATIONS=20000 bash "$root/tests/cli/litmus-causality.sh" "$bin" "$root"
