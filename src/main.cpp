// commtune: measure, tune and compare collective communication (NCCL on GPUs, Open MPI on hosts).
#include "cli/app.hpp"
#include "launch/wiring.hpp"

int main(int argc, char** argv) { return commtune::run_commtune(argc, argv, commtune::product_wiring()); }
