# commtune recommendation: backend nccl, 16 ranks on 2 node(s)
# allreduce: ring-simple (15.9% saved on the objective, not re-measured)
# allgather: ring-simple (11.3% saved on the objective, not re-measured)
# use: source this file (bash, sh) before launching the job
export NCCL_ALGO='allreduce:Ring;allgather:Ring'
export NCCL_PROTO='allreduce:Simple;allgather:Simple'
