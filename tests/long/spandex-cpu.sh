#!/usr/bin/env bash
# Long target for the CPU side of Spandex (docs/cpu.md): under the paper's
# four static designs (SDD, SDG, SMD, SMG) on the full configs/spandex.ini
# (16 SMs, 16 CPU cores, 4 x 4 mesh), the CPU-GPU litmus tests at 1000
# iterations and 1 M heterogeneous stress episodes with tiny caches and the
# observers on, and 1 M under SMD with random request types and mispredicted
# owners (tests/cli/litmus-cpu.sh and stress-hetero.sh run smaller).
set -u
bin=$1; root=$2
for design in spandex-d:denovo spandex-g:denovo spandex-d:mesi spandex-g:mesi; do
    p=${design%:*} dev=${design#*:}
    "$bin" litmus --config "$root/configs/spandex.ini" --protocol $p --set cpu.device=$dev \
        --iterations 1000 "$root/litmus/cpu-gpu" || exit $?
    "$bin" stress --config "$root/configs/spandex.ini" --protocol $p --set cpu.device=$dev \
        --episodes 1000000 --small-caches --check || exit $?
done
"$bin" stress --config "$root/configs/spandex.ini" --protocol spandex-d --set cpu.device=mesi \
    --episodes 1000000 --small-caches --check --set fcs.random=true --set fcs.mispredict=30 || exit $?
