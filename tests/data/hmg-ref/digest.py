#!/usr/bin/env python3
"""Digest of a run's statistics (gpucoh run --stats FILE.json): what the 1x1
topology test compares. The echoed configuration, the simulator speed and the
engine's count of host events (engine.events: how the simulator schedules its
work, not a simulated number; bench/same-stats.sh leaves it out too) are left
out; every simulated number is in."""
import hashlib
import json
import sys

d = json.load(open(sys.argv[1]))
keep = {k: d[k] for k in ('cycles', 'kernels', 'thread_insts', 'warp_insts', 'traffic',
                          'kernel_cycles', 'stats', 'check_passed')}
keep['stats'] = {k: v for k, v in keep['stats'].items() if k != 'engine.events'}
print(hashlib.sha256(json.dumps(keep, sort_keys=True).encode()).hexdigest())
