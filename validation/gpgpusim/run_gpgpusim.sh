#!/usr/bin/env bash
# run_gpgpusim.sh - run validation host programs on GPGPU-Sim under both
# baselines and write their figures as CSV (the data docs/validation.md
# compares with gpucoh's; tools/validate.sh writes gpucoh's side).
#
#   GPGPUSIM_ROOT=DIR CUDA_STANDIN=DIR validation/gpgpusim/run_gpgpusim.sh \
#       --size tiny --out validation/gpgpusim/tc-tiny.csv kmn stn ...
#
# GPGPUSIM_ROOT: a built gpgpu-sim_distribution checkout (not part of this
# repository; docs/validation.md says how it was built). CUDA_STANDIN: a
# CUDA tree whose bin/cuobjdump is validation/embedded_ptx.py (CUDA 13 has
# no cuobjdump). Hosts come from `make validation-hosts` (build/validation-
# hosts). Each run gets its own directory under --work (GPGPU-Sim reads
# gpgpusim.config from, and writes its PTX files to, the current directory);
# the log stays there. Baselines: nol1 (-gpgpu_gmem_skip_L1D 1: global
# accesses bypass the L1, as gpucoh's nol1) and rc (the non-coherent
# write-through L1, as gpucoh's rc); --baselines "nol1-coldcopy ..." runs
# an ablation (baseline_options below). A run already in the work directory
# with a finished log is not rerun (the CSV is rewritten whole), so two
# calls on disjoint workloads can run at once and a third collects them.
# A run is stopped after RUN_TIMEOUT seconds (default 3600; check: failed).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
size=tiny out= work=$root/build/gpgpusim-runs baselines="nol1 rc"
hosts=$root/build/validation-hosts
while [ $# -gt 0 ]; do
    case $1 in
    --size) size=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --baselines) baselines=$2; shift 2 ;;
    --hosts) hosts=$2; shift 2 ;;
    -*) echo "run_gpgpusim.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] && [ -n "$out" ] || { sed -n '2,20p' "$0" >&2; exit 2; }
: "${GPGPUSIM_ROOT:?set GPGPUSIM_ROOT to a built GPGPU-Sim}" "${CUDA_STANDIN:?set CUDA_STANDIN}"

export CUDA_INSTALL_PATH=$CUDA_STANDIN
# setup_environment refuses CUDA releases it was not tested with; the build
# notes say what was changed for CUDA 13.
# setup_environment reads unset variables (so set +u) and takes its first
# argument as the build to use (so a function without arguments: release).
load_gpgpusim() {
    set +u
    # shellcheck disable=SC1091
    source "$GPGPUSIM_ROOT/setup_environment" >/dev/null
    set -u
}
load_gpgpusim
[ -n "${GPGPUSIM_SETUP_ENVIRONMENT_WAS_RUN:-}" ] || { echo "run_gpgpusim.sh: setup_environment failed" >&2; exit 2; }
version=$(git -C "$GPGPUSIM_ROOT" log -1 --format=%h)
dirty=$(git -C "$GPGPUSIM_ROOT" status --porcelain --untracked-files=no | wc -l)

# A baseline, or an ablation of one (suffixes combine, each changes one
# thing docs/validation.md names as a difference from gpucoh):
#   -coldcopy     GPGPU-Sim's simulated memcpy off: it writes copied data
#                 into the L2 (gpucoh's host copies update only lines the
#                 L2 already holds)
#   -perfectic    instruction fetch and kernel-parameter (constant) loads
#                 always hit their L1 caches (gpucoh fetches no instructions
#                 and reads parameters and constants at the fixed
#                 sm.lat_shmem)
#   -wholeline    loads that bypass the L1 (all global loads under nol1)
#                 fetch 128-byte lines, as gpucoh's nol1 does, instead of
#                 Fermi's 32-byte segments (-gpgpu_coalesce_arch 13: the
#                 pre-Fermi rule, which only this choice depends on)
#   -fetchonwrite the L2 fetches a line's missing bytes when a write that
#                 does not fill its sector misses (gpucoh's L2 fetches on
#                 every write miss), instead of GPGPU-Sim's lazy fetch on
#                 read (written sectors are fetched when first read)
#   -linearl1     the L1 picks a line's set from its address bits (gpucoh's
#                 caches do) instead of Fermi's hashed set index
#   -fillalloc    the L1 takes a load miss's way when the fill arrives (as
#                 gpucoh's rc L1 does) instead of when the miss is sent
#   -nosectorl2   the L2 keeps whole 128-byte lines (gpucoh's L2 does)
#                 instead of four 32-byte sectors: a request is not split
#                 into sector requests, a miss fetches the whole line; the
#                 L1's MSHRs then expect one reply per miss (A), not the
#                 sector L2's four (S), and a write miss fetches the line
#                 (F, as -fetchonwrite and gpucoh's L2: this GPGPU-Sim's
#                 lazy fetch on read works only in a sectored L2; bh stops
#                 on an assertion). Not combinable with -linearl1,
#                 -fillalloc, -fetchonwrite (one -gpgpu_cache line each)
#   -l1banks      the L1 takes up to four lines a cycle from the memory
#                 stage (-gpgpu_l1_banks 4, line-interleaved) instead of one:
#                 a divergent warp's lines no longer enter one per cycle
#                 (gpucoh's memory stage also sends one line a cycle)
#   -localinsm    .local loads and stores are served in the SM through the
#                 shared-memory pipeline (-gpgpu_smem_latency), as gpucoh
#                 serves them (at sm.lat_shmem), instead of through the L1
#                 and L2. Needs the build notes' local option
#                 -gpgpu_local_in_sm (off: unchanged)
#   -l1hit10      the L1's hit latency 10 cycles instead of 20 (not a
#                 difference, gpucoh's l1.hit_cycles is 20 too: a sensitivity
#                 run, compared with gpucoh's --set l1.hit_cycles=10)
#   -lat1         every ALU, FP, DP and SFU opcode's latency and initiation
#                 interval 1 cycle (-ptx_opcode_latency_* and
#                 -ptx_opcode_initiation_*): a warp's dependent instructions
#                 then follow each other at the pipeline's own distance (the
#                 operand collector, dispatch and writeback: 7 cycles,
#                 measured), compared with gpucoh's sm.lat_* classes set to 7
#   -sectoraddr   the L2 addresses the sectors of a split 64-byte request
#                 from the line's base; GPGPU-Sim adds 32 x sector to the
#                 request's own address, so an upper-half request (line +
#                 64, sectors 2-3) lands in the next line's sectors 2-3.
#                 Needs the build notes' local option
#                 -gpgpu_l2_sector_split_line_addr (off: unchanged)
#   -lineil       the memory channels (each one L2 bank) interleave
#                 128-byte lines (-gpgpu_mem_addr_mapping dramid@7, same
#                 mask), as gpucoh's L2 banks do, instead of 256-byte
#                 chunks (dramid@8): two consecutive lines no longer share
#                 a bank (cl-tm's 1 KB lock array: 8 banks, not 4)
baseline_options() {
    case $1 in
    *-lineil) baseline_options "${1%-lineil}"
        echo "-gpgpu_mem_addr_mapping dramid@7;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS" ;;
    *-coldcopy) baseline_options "${1%-coldcopy}"; echo "-gpgpu_perf_sim_memcpy 0" ;;
    *-perfectic) baseline_options "${1%-perfectic}"; echo "-gpgpu_perfect_inst_const_cache 1" ;;
    *-wholeline) baseline_options "${1%-wholeline}"; echo "-gpgpu_coalesce_arch 13" ;;
    *-fetchonwrite) baseline_options "${1%-fetchonwrite}"
        echo "-gpgpu_cache:dl2 S:128:128:8,L:B:m:F:L,A:128:4,4:0,32" ;;
    *-linearl1) baseline_options "${1%-linearl1}"; echo "-gpgpu_cache:dl1 N:64:128:4,L:L:m:N:L,S:128:8,8" ;;
    *-fillalloc) baseline_options "${1%-fillalloc}"; echo "-gpgpu_cache:dl1 N:64:128:4,L:L:f:N:H,S:128:8,8" ;;
    *-nosectorl2) baseline_options "${1%-nosectorl2}"
        echo "-gpgpu_cache:dl2 N:128:128:8,L:B:m:F:L,A:128:4,4:0,32"
        echo "-gpgpu_cache:dl1 N:64:128:4,L:L:m:N:H,A:128:8,8" ;;
    *-l1banks) baseline_options "${1%-l1banks}"
        echo "-gpgpu_l1_banks 4"; echo "-gpgpu_l1_banks_byte_interleaving 128" ;;
    *-localinsm) baseline_options "${1%-localinsm}"; echo "-gpgpu_local_in_sm 1" ;;
    *-l1hit10) baseline_options "${1%-l1hit10}"; echo "-gpgpu_l1_latency 10" ;;
    *-lat1) baseline_options "${1%-lat1}"
        echo "-ptx_opcode_latency_int 1,1,1,1,1,1"; echo "-ptx_opcode_initiation_int 1,1,1,1,1,1"
        echo "-ptx_opcode_latency_fp 1,1,1,1,1"; echo "-ptx_opcode_initiation_fp 1,1,1,1,1"
        echo "-ptx_opcode_latency_dp 1,1,1,1,1"; echo "-ptx_opcode_initiation_dp 1,1,1,1,1"
        echo "-ptx_opcode_latency_sfu 1"; echo "-ptx_opcode_initiation_sfu 1" ;;
    *-sectoraddr) baseline_options "${1%-sectoraddr}"; echo "-gpgpu_l2_sector_split_line_addr 1" ;;
    nol1) echo "-gpgpu_gmem_skip_L1D 1" ;;
    rc) echo "-gpgpu_gmem_skip_L1D 0" ;;
    *) echo "run_gpgpusim.sh: unknown baseline $1" >&2; exit 2 ;;
    esac
}

# The last value of "NAME = N" (GPGPU-Sim prints cumulative totals after
# every kernel), or of a breakdown line NAME[ACCESS][OUTCOME] = N.
last() { grep -E "^$1 = " "$2" | tail -1 | sed 's/.*= *//' || true; }
breakdown() { grep -F "$1[$2][$3] = " "$4" | tail -1 | sed 's/.*= *//' || true; }

tmp=$(mktemp "$out.XXXXXX")
trap 'rm -f "$tmp"' EXIT
{
    echo "# $(cat "$GPGPUSIM_ROOT/version" | sed 's/.*"\(.*\) ".*/\1/') commit $version ($dirty files changed locally for CUDA 13: docs/validation.md), $(nvcc --version | grep -o 'release [0-9.]*')"
    echo "# config: validation/gpgpusim/tc-fermi.config + per baseline:$(for b in $baselines; do
        printf ' %s:' "$b"; printf ' %s' $(baseline_options "$b"); printf ';'; done)"
    echo "# command: validation/gpgpusim/run_gpgpusim.sh --size $size --baselines \"$baselines\" $* (each: build/validation-hosts/WL --size $size)"
    echo "workload,size,baseline,cycles,thread_insts,l1_hit_rate,l2_hit_rate,dram_read_bytes,dram_write_bytes,check"
} > "$tmp"
for wl in "$@"; do
    for b in $baselines; do
        dir=$work/$wl-$size-$b
        log=$dir/gpgpusim.log
        if ! grep -q "^GPGPU-Sim: \*\*\* exit detected \*\*\*" "$log" 2>/dev/null; then
            rm -rf "$dir" && mkdir -p "$dir"
            { cat "$here/tc-fermi.config"; echo; baseline_options "$b"; } > "$dir/gpgpusim.config"
            cp "$here/tc-fermi.icnt" "$dir/"
            echo "run_gpgpusim.sh: $wl $size $b" >&2
            (cd "$dir" && timeout "${RUN_TIMEOUT:-3600}" "$hosts/$wl" --size "$size" \
                > gpgpusim.log 2>&1) || true
        fi
        check=$(grep -E "^$wl: (ok|WRONG)" "$log" | awk '{print $2}' || true)
        cycles=$(last gpu_tot_sim_cycle "$log")
        insts=$(last gpu_tot_sim_insn "$log")
        l1h=$(breakdown Total_core_cache_stats_breakdown GLOBAL_ACC_R HIT "$log")
        l1t=$(breakdown Total_core_cache_stats_breakdown GLOBAL_ACC_R TOTAL_ACCESS "$log")
        l2a=$(last L2_total_cache_accesses "$log")
        l2m=$(last L2_total_cache_misses "$log")
        # DRAM: each channel's column commands of the whole run (its last
        # n_cmd= line), one 64-byte atom each (buswidth 4 x 2 chips x BL 8):
        # reads n_rd + n_rd_L2_A, writes n_write + n_wr_bk.
        read -r rd wr < <(grep "^n_cmd=" "$log" | tail -8 | awk '
            { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] += kv[2] } }
            END { printf "%d %d\n", 64 * (v["n_rd"] + v["n_rd_L2_A"]), 64 * (v["n_write"] + v["n_wr_bk"]) }')
        python3 - "$wl" "$size" "$b" "${cycles:-}" "${insts:-}" "${l1h:-0}" "${l1t:-0}" \
            "${l2a:-0}" "${l2m:-0}" "${rd:-}" "${wr:-}" "${check:-failed}" >> "$tmp" <<'PY'
import sys
wl, size, b, cyc, ins, hits, loads, l2a, l2m, rd, wr, check = sys.argv[1:]
hits, loads, l2a, l2m = (int(x) for x in (hits, loads, l2a, l2m))
# L1: global loads that hit, over global loads (misses, hits on a pending
# miss, hits; retries after a reservation failure not counted), as gpucoh's
# l1_hit_rate. L2: accesses that did not miss, over all, as gpucoh's.
l1 = '%.6f' % (hits / loads) if loads else '0'
l2 = '%.6f' % ((l2a - l2m) / l2a) if l2a else '0'
print(','.join([wl, size, b, cyc, ins, l1, l2, rd, wr, check]))
PY
    done
done
mv "$tmp" "$out"
trap - EXIT
echo "run_gpgpusim.sh: wrote $out" >&2
