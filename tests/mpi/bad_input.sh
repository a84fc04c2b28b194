#!/usr/bin/env bash
# Bad input exits 2 before anything runs, with one `commtune: error:` line naming the option or key
# and the value at fault.
source "$(dirname "$0")/common.sh"
expect_exit 2 "$COMMTUNE" sweep -b 1X
error_names -b "'1X'"
expect_exit 2 "$COMMTUNE" sweep -b 1M -e 1K
expect_exit 2 "$COMMTUNE" sweep --collectives allreduce,alltoall
error_names --collectives "'alltoall'"
expect_exit 2 "$COMMTUNE" sweep --backend tpu
expect_exit 2 "$COMMTUNE" sweep --no-such-flag
expect_exit 2 "$COMMTUNE" sweep --config /nonexistent.json
echo '{"sweep": {"max_byte": "1M"}}' > "$WORK/typo.json"
expect_exit 2 "$COMMTUNE" sweep --config "$WORK/typo.json"
error_names "$WORK/typo.json" "'max_byte'"
echo '{"settings": [{"name": "x", "knobs": {"coll_tuned_allreduce_algoritm": "4"}}]}' > "$WORK/knob.json"
expect_exit 2 "${MPIRUN[@]}" -np 2 "$COMMTUNE" sweep --config "$WORK/knob.json" --out "$WORK/never.json"
error_names "$WORK/knob.json" "'x'" "'coll_tuned_allreduce_algoritm'"
[ ! -e "$WORK/never.json" ] || die "a results file was created for a refused config"
echo '{"settings": [{"name": "x", "knobs": {"coll_tuned_allreduce_algorithm": "warp_speed"}}]}' > "$WORK/value.json"
expect_exit 2 "${MPIRUN[@]}" -np 2 "$COMMTUNE" sweep --config "$WORK/value.json"
# The value at fault, and the valid ones as Open MPI numbers them (the knob's own table).
error_names "$WORK/value.json" "'warp_speed'" coll_tuned_allreduce_algorithm 1=basic_linear 4=ring
expect_exit 2 "$COMMTUNE" sweep --backend mpi -d half -b 8 -e 8
echo "bad input: all refused with exit 2"
