# The emulated cluster (scripts/cluster.sh): 4 nodes as network and UTS namespaces, mpirun with a
# hostfile and a launch agent, Slurm with srun --mpi=pmix and salloc ... mpirun. Label "cluster";
# skipped (exit 77, with the reason) where there is no root, no namespaces or no Slurm.
function(commtune_cluster_test name script)
  add_test(NAME ${name} COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/${script} ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS cluster TIMEOUT 300 SKIP_RETURN_CODE 77)
endfunction()

commtune_cluster_test(cluster_mpirun run_in_cluster.sh mpirun $<TARGET_FILE:commtune> $<TARGET_FILE:commtune-simulated>)
commtune_cluster_test(cluster_slurm run_in_cluster.sh slurm $<TARGET_FILE:commtune> $<TARGET_FILE:commtune-simulated>)
commtune_cluster_test(cluster_groups run_in_cluster.sh groups $<TARGET_FILE:commtune> $<TARGET_FILE:commtune-simulated>)
commtune_cluster_test(cluster_teardown teardown_test.sh)
