#include "tuner_plugin/nccl_caller.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <unistd.h>

namespace commtune::testing {

namespace {
std::mutex log_mutex;
std::vector<LoggedMessage> log_store;

// This process's folder for the files its tests write (ctest runs each test in a process of its
// own), removed when the tests end: a run leaves nothing in the temporary directory.
std::filesystem::path process_temp_dir() {
  return std::filesystem::temp_directory_path() / ("commtune-tuner-plugin-" + std::to_string(::getpid()));
}

class RemovesTempFiles : public ::testing::Environment {
 public:
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(process_temp_dir(), ignored);
  }
};

[[maybe_unused]] ::testing::Environment* const kRemovesTempFiles =
    ::testing::AddGlobalTestEnvironment(new RemovesTempFiles);
}  // namespace

std::vector<LoggedMessage> logged_messages() {
  std::lock_guard lock(log_mutex);
  return log_store;
}

void clear_logged_messages() {
  std::lock_guard lock(log_mutex);
  log_store.clear();
}

extern "C" void record_log(int level, unsigned long, const char*, int, const char* fmt, ...) {
  char buffer[4096];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buffer, sizeof buffer, fmt, args);
  va_end(args);
  std::lock_guard lock(log_mutex);
  log_store.push_back({level, buffer});
}

LoadedPlugin::LoadedPlugin() {
  handle_ = dlopen(COMMTUNE_TUNER_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    ADD_FAILURE() << "dlopen " << COMMTUNE_TUNER_PLUGIN_PATH << ": " << dlerror();
    return;
  }
  v5_ = static_cast<const NcclTunerV5*>(dlsym(handle_, "ncclTunerPlugin_v5"));
  v6_ = static_cast<const NcclTunerV6*>(dlsym(handle_, "ncclTunerPlugin_v6"));
  if (v5_ == nullptr) ADD_FAILURE() << "no ncclTunerPlugin_v5 in the plugin";
}

LoadedPlugin::~LoadedPlugin() {
  if (handle_ != nullptr) dlclose(handle_);
}

CostTable::CostTable() {
  for (int a = 0; a < 7; ++a)
    for (int p = 0; p < 3; ++p) cost[a][p] = 10.0f + static_cast<float>(a * 3 + p);  // NCCL's pick: tree/ll
}

std::pair<int, int> CostTable::pick() const {
  std::pair<int, int> best{-1, -1};
  float best_cost = 0;
  for (int a = 0; a < 7; ++a)
    for (int p = 0; p < 3; ++p)
      if (cost[a][p] >= 0 && (best.first < 0 || cost[a][p] < best_cost)) {
        best = {a, p};
        best_cost = cost[a][p];
      }
  return best;
}

CallResult call(const NcclTunerV5& tuner, void* ctx, int coll, std::size_t nbytes, CostTable table,
                int num_pipe_ops, int reg_buff) {
  CallResult r;
  r.table = table;
  int nchannels = 0;
  const int rc = tuner.getCollInfo(ctx, coll, nbytes, num_pipe_ops, r.table.as_nccl_pointer(), 7, 3, reg_buff,
                                   &nchannels);
  EXPECT_EQ(rc, 0) << "getCollInfo must never fail a collective";
  for (int a = 0; a < 7; ++a)
    for (int p = 0; p < 3; ++p) {
      if (table.cost[a][p] < 0) {
        EXPECT_EQ(r.table.cost[a][p], -1.0f) << "an unavailable entry was written";
      }
    }
  r.pick = r.table.pick();
  r.nchannels = nchannels;
  return r;
}

std::string write_temp_file(const std::string& name, const std::string& text) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const auto dir = process_temp_dir() / info->name();
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  return path.string();
}

}  // namespace commtune::testing
