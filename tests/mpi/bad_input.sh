#!/usr/bin/env bash
# Bad input gets a clear message and exit code 2, before anything runs.
source "$(dirname "$0")/common.sh"
expect_exit 2 "$COMMTUNE" sweep -b 1X
grep -q "bad size" "$WORK/err.txt" || die "no message for -b 1X"
expect_exit 2 "$COMMTUNE" sweep -b 1M -e 1K
expect_exit 2 "$COMMTUNE" sweep --collectives allreduce,alltoall
grep -q "unknown collective" "$WORK/err.txt" || die "no message for alltoall"
expect_exit 2 "$COMMTUNE" sweep --backend tpu
expect_exit 2 "$COMMTUNE" sweep --no-such-flag
expect_exit 2 "$COMMTUNE" sweep --config /nonexistent.json
echo '{"sweep": {"max_byte": "1M"}}' > "$WORK/typo.json"
expect_exit 2 "$COMMTUNE" sweep --config "$WORK/typo.json"
grep -q "max_byte" "$WORK/err.txt" || die "typo not named"
echo '{"settings": [{"name": "x", "knobs": {"coll_tuned_allreduce_algoritm": "4"}}]}' > "$WORK/knob.json"
expect_exit 2 "${MPIRUN[@]}" -np 2 "$COMMTUNE" sweep --config "$WORK/knob.json" --out "$WORK/never.json"
grep -q "no control variable" "$WORK/err.txt" || die "unknown knob not explained"
[ ! -e "$WORK/never.json" ] || die "a results file was created for a refused config"
echo '{"settings": [{"name": "x", "knobs": {"coll_tuned_allreduce_algorithm": "warp_speed"}}]}' > "$WORK/value.json"
expect_exit 2 "${MPIRUN[@]}" -np 2 "$COMMTUNE" sweep --config "$WORK/value.json"
grep -q "valid:" "$WORK/err.txt" || die "invalid value not explained"
expect_exit 2 "$COMMTUNE" sweep --backend mpi -d half -b 8 -e 8
echo "bad input: all refused with exit 2"
