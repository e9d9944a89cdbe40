#!/usr/bin/env bash
# `gpucoh protocol show` prints every controller table; `list` names them.
set -u
bin=$1
fail() { echo "FAIL: $*"; exit 1; }
out=$("$bin" protocol show rc --format md) || fail "protocol show rc"
echo "$out" | grep -q '^### rc: L1' || fail "no rc L1 table"
echo "$out" | grep -q '^### nc: L2' || fail "no L2 table"
echo "$out" | grep -q '| \*\*V\*\* | reply_hit |' || fail "V+Load cell missing"
echo "$out" | grep -q 'drop_line, alloc_tbe, send_write → II' || fail "write-evict cell missing"
"$bin" protocol show nol1 --format dot | grep -q '"I" -> "I" \[label="Load"\]' || fail "dot"
"$bin" protocol show nosuch >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown protocol must exit 2"
"$bin" list protocols | grep -q '^rc ' || fail "list protocols"
out=$("$bin" protocol show stc-mb --format md) || fail "protocol show stc-mb"
echo "$out" | grep -q '^### stc: L1' || fail "no stc L1 table"
echo "$out" | grep -q 'alloc_tbe, block → B' || fail "stc I+Block cell missing"
echo "$out" | grep -q 'reply_rsp, free_tbe → I' || fail "stc Data_E cell missing"
echo "protocol-show: 1 passed, 0 failed"
