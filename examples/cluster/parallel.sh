#!/usr/bin/env bash
# Run a benchmark as N shards with GNU parallel, on this machine or over
# ssh, then merge the shards into one result directory.
#
#   examples/cluster/parallel.sh [N] [CORPUS...]
#
# Each shard is a normal `dlxbench bench` run of every N-th line
# (`--shard K/N`, K from 1); `dlxbench merge` checks that the shards are
# alike and complete and joins them exactly. Environment:
#   DLXBENCH  the binary (default: dlxbench on the PATH)
#   JOBS      shards run at once (default: 2)
#   THREADS   worker threads per shard (default: 1)
#   OUT       where the shards and the merge go (default: results/parallel)
#   SSHLOGIN  if set, run the shards over ssh (GNU parallel --sshlogin,
#             e.g. "4/node1,4/node2"): every host needs the binary and the
#             corpora at the same paths, and OUT on a shared file system
#             (or add --return/--cleanup to bring the shards back).
set -euo pipefail

n=${1:-4}
shift || true
if [ "$#" -eq 0 ]; then
    set -- datasets/sudoku17_all_49158.txt
fi
dlxbench=${DLXBENCH:-dlxbench}
out=${OUT:-results/parallel}
mkdir -p "$out"

remote=()
if [ -n "${SSHLOGIN:-}" ]; then
    remote=(--sshlogin "$SSHLOGIN" --workdir "$PWD")
fi

# {} is the shard number, 1..n. --halt: stop at the first failed shard.
seq 1 "$n" | parallel --jobs "${JOBS:-2}" --halt now,fail=1 "${remote[@]}" \
    "$dlxbench" bench --quiet --threads "${THREADS:-1}" --shard "{}/$n" \
        --out "$out/shard-{}" "$@"

"$dlxbench" merge "$out"/shard-* --out "$out/merged"
