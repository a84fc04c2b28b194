#!/usr/bin/env bash
# A sweep of all-reduce, all-gather and broadcast under mpirun -np N: table printed, results
# valid, every busbw recomputes, #wrong 0; then reduce-scatter and a broadcast rooted off rank 0.
source "$(dirname "$0")/common.sh"
for np in 2 3 4; do
  say "mpirun -np $np"
  "${MPIRUN[@]}" -np "$np" "$COMMTUNE" sweep -b 8 -e 256K -f 8 --max-time 0.05 --out "$WORK/np$np.json" > "$WORK/table.txt"
  grep -q "setting default" "$WORK/table.txt" || die "no table"
  grep -q "Out of bounds values : 0 OK" "$WORK/table.txt" || die "wrong data reported"
  "$CHECK" "$WORK/np$np.json" --nranks "$np" --min-cases 30
done
say "mpirun -np 3: reduce-scatter, and broadcast from rank 2, both placements"
"${MPIRUN[@]}" -np 3 "$COMMTUNE" sweep --collectives reducescatter,broadcast -r 2 -b 48 -e 192K -f 8 --max-time 0.05 \
  --out "$WORK/scatter.json" > "$WORK/table.txt"
grep -q "Out of bounds values : 0 OK" "$WORK/table.txt" || die "wrong data reported"
"$CHECK" "$WORK/scatter.json" --nranks 3 --min-cases 20
say "no launcher: one rank"
"$COMMTUNE" sweep --backend mpi -b 1K -e 4K -f 2 --max-time 0.02 --out "$WORK/single.json" > /dev/null
"$CHECK" "$WORK/single.json" --nranks 1 --min-cases 6
