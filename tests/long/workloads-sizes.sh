#!/usr/bin/env bash
# Long target: every workload at small size under every implemented protocol,
# and the basic set at paper size under nol1 and rc.
set -u
bin=$1
rc=0
"$bin" compare --workloads all --protocols all --size small || rc=1
"$bin" compare --workloads basic --protocols nol1,rc --size paper || rc=1
exit $rc
