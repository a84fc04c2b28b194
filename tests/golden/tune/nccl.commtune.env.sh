# commtune recommendation: backend nccl, 16 ranks on 2 node(s)
# allreduce: ring-simple (15.9% saved on the objective, not re-measured)
# allgather: ring-simple (11.3% saved on the objective, not re-measured)
# note: the env files leave out NCCL_ALGO=allreduce:Ring;allgather:Ring NCCL_PROTO=allreduce:Simple;allgather:Simple: per-size choices go through commtune's tuner plugin (--format nccl-tuner); export --nccl-algo-env puts these debugging variables back
# use: source this file (bash, sh) before launching the job
