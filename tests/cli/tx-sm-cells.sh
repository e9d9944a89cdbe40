#!/usr/bin/env bash
# tx-sm-cells.sh - the SM side of transactions as tables (getm.SM and
# warptm.SM, src/coh/getm/sm_tx.c): six tiny transactional runs fire every
# cell listed below, checked in their --coverage. The runs: GETM with 12-bit
# timestamps and the serial token after 3 fruitless attempts (rollovers,
# Spent, LeavingRoll, RollWait, RollSerialWait), GETM whose retries do not
# wait for the commit's acks (Running + Ack), GETM with one transactional warp
# per SM (HoldLimit), WarpTM with the serial token after 2 fruitless attempts
# (Grant, Free), EAPG (Pause, EarlyAbort) and WarpTM-EL (Check). The cells not
# listed are defined for states a run may reach but these runs do not (a transaction
# that sends no commit or cleanup: Leave, LeaveRoll; a warp at a begin while
# its last commit's acks are out and a rollover or the token is asked for:
# Leaving + HoldRoll or HoldToken; WarpTM's limit); a cell that should not
# exist is a hole (a panic, exit 3), which a run here would meet as a
# failure.
# usage: tx-sm-cells.sh GPUCOH REPO
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
n=0
for run in "atm tx getm getm.ts_bits=12 getm.progress_aborts=3" \
    "cl-tm tx getm getm.commit_waits=false" \
    "bh-tm tx getm getm.tx_warps=1" \
    "cl-tm to-tx warptm getm.progress_aborts=2" \
    "ht tx warptm warptm.eapg=true" \
    "atm tx warptm warptm.eager=true"; do
    set -- $run
    w=$1 v=$2 p=$3
    shift 3
    sets=()
    for s in "$@"; do sets+=(--set "$s"); done
    n=$((n + 1))
    "$bin" run --workload "$w" --variant "$v" --protocol "$p" --size tiny --quiet "${sets[@]}" \
        --coverage "$tmp/cov.$n" >"$tmp/out.$n" 2>&1
    rc=$?
    [ $rc -eq 0 ] || {
        cat "$tmp/out.$n"
        fail "$run: exit $rc"
    }
done
cat "$tmp"/cov.* | awk '$1 ~ /^coverage\.(getm|warptm)\.SM\./ { c[$1] += $2 }
    END { for (k in c) if (c[k] > 0) print substr(k, 10) }' | sort >"$tmp/fired"
cells="
getm.SM.Idle.Begin getm.SM.Idle.HoldLimit getm.SM.Idle.HoldRoll getm.SM.Idle.HoldToken
getm.SM.Spent.HoldRoll getm.SM.Spent.Rollover
getm.SM.Leaving.Ack getm.SM.Leaving.HoldAcks getm.SM.Leaving.LastAck
getm.SM.LeavingRoll.Ack getm.SM.LeavingRoll.HoldAcks getm.SM.LeavingRoll.LastAck
getm.SM.Running.Issue getm.SM.Running.Verdict getm.SM.Running.LastVerdict getm.SM.Running.HoldEnd
getm.SM.Running.Retry getm.SM.Running.RetryAcks getm.SM.Running.RetryRoll
getm.SM.Running.RetryToken getm.SM.Running.RetryRollToken
getm.SM.Running.LeaveAcks getm.SM.Running.LeaveAcksRoll getm.SM.Running.Ack getm.SM.Running.LastAck
getm.SM.Committing.Ack getm.SM.Committing.HoldAcks getm.SM.Committing.LastAck
getm.SM.RollWait.Ack getm.SM.RollWait.HoldRoll getm.SM.RollWait.LastAck getm.SM.RollWait.Rollover
getm.SM.SerialWait.Ack getm.SM.SerialWait.LastAck getm.SM.SerialWait.Grant getm.SM.SerialWait.Free
getm.SM.SerialWait.HoldToken
getm.SM.RollSerialWait.Ack getm.SM.RollSerialWait.LastAck getm.SM.RollSerialWait.HoldRoll
getm.SM.RollSerialWait.Rollover
warptm.SM.Idle.Begin warptm.SM.Idle.HoldToken
warptm.SM.Leaving.Ack warptm.SM.Leaving.HoldAcks warptm.SM.Leaving.LastAck
warptm.SM.Running.Issue warptm.SM.Running.Verdict warptm.SM.Running.LastVerdict
warptm.SM.Running.HoldEnd warptm.SM.Running.Check warptm.SM.Running.Pause
warptm.SM.Running.EarlyAbort
warptm.SM.Running.Validate warptm.SM.Running.ValidateNone
warptm.SM.Validating.Answer warptm.SM.Validating.LastAnswer warptm.SM.Validating.HoldEnd
warptm.SM.Validated.Retry warptm.SM.Validated.RetryAcks warptm.SM.Validated.RetryToken
warptm.SM.Validated.LeaveAcks
warptm.SM.Committing.Ack warptm.SM.Committing.HoldAcks warptm.SM.Committing.LastAck
warptm.SM.SerialWait.Ack warptm.SM.SerialWait.LastAck warptm.SM.SerialWait.Grant
warptm.SM.SerialWait.Free warptm.SM.SerialWait.HoldToken
"
never=0
for c in $cells; do
    grep -qx "$c" "$tmp/fired" || {
        echo "$c never fired"
        never=$((never + 1))
    }
done
[ $never -eq 0 ] || fail "$never cells never fired"
echo "ok: $(echo $cells | wc -w) cells of getm.SM and warptm.SM fired in $n runs"
