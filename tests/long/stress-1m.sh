#!/usr/bin/env bash
# Long target: 1 M DRF stress episodes per protocol with small caches.
set -u
bin=$1
"$bin" stress --protocol all --episodes 1000000 --small-caches --check
