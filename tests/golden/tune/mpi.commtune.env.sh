# commtune recommendation: backend mpi, 4 ranks on 1 node(s)
# use: source this file (bash, sh) before launching the job
