// The workload readers: NCCL debug logs (one mixed file, per-process files, one rank's file) and a
// PyTorch profiler trace, read into the step's collectives; every bad input an InputError.
#include <gtest/gtest.h>

#include <sstream>

#include "core/errors.hpp"
#include "workload/call_sequence.hpp"
#include "workload/nccl_log.hpp"
#include "workload/nccl_log_line.hpp"
#include "workload/nccl_log_scan.hpp"
#include "workload/torch_trace.hpp"

namespace commtune {
namespace {

const std::string kDir = std::string(COMMTUNE_SOURCE_DIR) + "/tests/fixtures/workload/";

GroupSpec split_spec(SplitOp op, std::uint32_t value) {
  return {.kind = GroupKind::Split, .op = op, .value = value};
}

WorkloadCollective entry(Collective c, std::uint64_t bytes, DataType t, GroupSpec group, int ranks,
                         std::uint64_t count) {
  return {.collective = c,
          .bytes = bytes,
          .datatype = t,
          .op = ReduceOp::Sum,
          .group = group,
          .group_ranks = ranks,
          .count = count,
          .label = {}};
}

// The step of two_comms.log and rank0.pt.trace.json: a world of 8 and four groups of 2 (DIV 2).
std::vector<WorkloadCollective> two_comms_step() {
  const GroupSpec world{};
  return {entry(Collective::AllReduce, 26214400, DataType::BFloat16, world, 8, 2),
          entry(Collective::AllReduce, 1048576, DataType::Float32, world, 8, 1),
          entry(Collective::AllGather, 4194304, DataType::BFloat16, split_spec(SplitOp::Div, 2), 2, 1),
          entry(Collective::ReduceScatter, 2097152, DataType::BFloat16, split_spec(SplitOp::Div, 2), 2, 1)};
}

bool has_note(const Workload& w, const std::string& text) {
  for (const std::string& note : w.source.notes)
    if (note.find(text) != std::string::npos) return true;
  return false;
}

Workload read_text(const std::string& text, const NcclLogOptions& options = {}) {
  std::istringstream in(text);
  return read_nccl_log_streams({{"test.log", &in}}, options);
}

std::string error_of(const std::function<void()>& body) {
  try {
    body();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(NcclLogLine, ReadsTheCollectiveAndInitLinesOfEachVersion) {
  const NcclLine call = parse_nccl_line(
      "[2025-01-01 00:00:00] my-host:12:13 [3] NCCL INFO AllGather: opCount 1a sendbuff 0x7f00 recvbuff "
      "(nil) "
      "count 1024 datatype 9 op 0 root 0 comm 0xabc [nranks=4] stream (nil)");
  ASSERT_EQ(call.kind, NcclLineKind::Call);
  EXPECT_EQ(call.host, "my-host");
  EXPECT_EQ(call.pid, 12);
  EXPECT_EQ(call.call.function, "AllGather");
  EXPECT_EQ(call.call.count, 1024u);
  EXPECT_EQ(call.call.comm, 0xabcu);
  EXPECT_EQ(call.call.nranks, 4);
  const NcclLine v218 = parse_nccl_line(
      "h:1:2 [0] NCCL INFO comm 0x10 rank 2 nranks 4 cudaDev 2 nvmlDev 2 busId 3000 commId 0xfe - Init "
      "COMPLETE");
  ASSERT_EQ(v218.kind, NcclLineKind::Init);
  EXPECT_EQ(v218.init.rank, 2);
  EXPECT_EQ(v218.init.comm_id, 0xfeu);
  const NcclLine v228 = parse_nccl_line(
      "h:1:2 [0] NCCL INFO ncclCommSplit comm 0x20 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1000 parent "
      "0x10 "
      "splitCount 3 color 1 key 0 - Init COMPLETE");
  ASSERT_EQ(v228.kind, NcclLineKind::Init);
  EXPECT_EQ(v228.init.parent, 0x10u);
  EXPECT_EQ(v228.init.split_count, 3);
  EXPECT_EQ(v228.init.color, 1);
  EXPECT_FALSE(v228.init.comm_id);
  EXPECT_EQ(parse_nccl_line("h:1:2 [0] NCCL INFO NET/IB : No device found.").kind, NcclLineKind::Other);
  EXPECT_EQ(parse_nccl_line("h:1:2 [0] NCCL INFO AllReduce: opCount 1 sendbuff 0x7f").kind,
            NcclLineKind::Malformed);
  EXPECT_EQ(
      parse_nccl_line("h:1:2 [0] NCCL INFO AllReduce: opCount 1 sendbuff h:1:3 [0] NCCL INFO AllReduce: "
                      "opCount 2 sendbuff 0x1 recvbuff 0x1 count 1 datatype 7 op 0 root 0 comm 0x1 "
                      "[nranks=2] stream 0x1")
          .kind,
      NcclLineKind::Malformed);
}

TEST(CallSequence, FindsTheShortestRepeatingPeriodAfterTheWarmUp) {
  CallSequence s;
  for (std::uint32_t key : {9u, 1u, 1u, 2u, 1u, 1u, 2u, 1u, 1u, 2u, 1u}) s.add(key);
  const std::optional<Period> p = find_period(s.runs());
  ASSERT_TRUE(p);
  EXPECT_EQ(p->start, 1u);
  EXPECT_EQ(p->pattern, (std::vector<CallRun>{{1, 2}, {2, 1}}));
  EXPECT_EQ(p->repeats, 3u);
  CallSequence once;
  for (std::uint32_t key : {1u, 2u, 3u}) once.add(key);
  EXPECT_FALSE(find_period(once.runs()));
}

// The device check's real DDP job (torch 2.11, NCCL 2.28.9): start-up calls, five steps of two
// bucket all-reduces, then one shutdown all-gather after the last step.
TEST(CallSequence, ACallAfterTheLastStepIsLeftOut) {
  CallSequence s;
  for (std::uint32_t key : {7u, 8u, 9u, 3u, 5u, 6u, 1u, 2u, 1u, 2u, 1u, 2u, 1u, 2u, 1u, 2u, 7u}) s.add(key);
  const std::optional<Period> p = find_period(s.runs());
  ASSERT_TRUE(p);
  EXPECT_EQ(p->start, 6u);
  EXPECT_EQ(p->pattern, (std::vector<CallRun>{{1, 1}, {2, 1}}));
  EXPECT_EQ(p->repeats, 5u);
}

TEST(NcclLog, MixedOutputOfEightRanksGivesTheWorldAndTheFourPairs) {
  const Workload w = read_nccl_logs({kDir + "two_comms.log"}, {});
  EXPECT_EQ(w.world_ranks, 8);
  EXPECT_EQ(w.collectives, two_comms_step());
  EXPECT_EQ(w.source.kind, "nccl-log");
  EXPECT_EQ(w.source.skipped_lines, 1u);  // the line cut short at the end
  EXPECT_TRUE(has_note(w, "Send x32"));
  EXPECT_TRUE(has_note(w, "4 steps"));
  NcclLogOptions four{.steps = 4, .world_ranks = 0};
  EXPECT_EQ(read_nccl_logs({kDir + "two_comms.log"}, four).collectives.size(), 5u);  // warm-up broadcast kept
}

std::vector<std::string> rank_files() {
  std::vector<std::string> files;
  for (int r = 0; r < 8; ++r) files.push_back(kDir + "ranks/rank_" + std::to_string(r) + ".log");
  return files;
}

TEST(NcclLog, PerProcessFilesGiveIntraAndInterNodeShapes) {
  const Workload w = read_nccl_logs(rank_files(), {});
  const GroupSpec intra{.kind = GroupKind::IntraNode}, inter{.kind = GroupKind::InterNode};
  EXPECT_EQ(w.world_ranks, 8);
  EXPECT_EQ(w.collectives, (std::vector<WorkloadCollective>{
                               entry(Collective::AllReduce, 8388608, DataType::Float32, {}, 8, 1),
                               entry(Collective::ReduceScatter, 2097152, DataType::BFloat16, intra, 4, 1),
                               entry(Collective::AllGather, 2097152, DataType::BFloat16, intra, 4, 1),
                               entry(Collective::AllReduce, 1048576, DataType::BFloat16, inter, 2, 3)}));
  EXPECT_EQ(w.source.skipped_lines, 0u);
  EXPECT_EQ(w.source.files.size(), 8u);
  EXPECT_EQ(read_nccl_logs(rank_files(), {.steps = 3, .world_ranks = 0}).collectives, w.collectives);
}

TEST(NcclLog, OneRanksLogInfersTheShapesAndSaysSo) {
  const Workload w = read_nccl_logs({kDir + "ranks/rank_6.log"}, {});
  EXPECT_EQ(w.world_ranks, 8);
  ASSERT_EQ(w.collectives.size(), 4u);
  EXPECT_EQ(w.collectives[1].group, split_spec(SplitOp::Div, 4));  // consecutive ranks: its rank 2 = 6 % 4
  EXPECT_EQ(w.collectives[3].group, split_spec(SplitOp::Mod, 4));  // strided: its rank 1 = 6 / 4
  EXPECT_EQ(w.collectives[3].count, 3u);
  EXPECT_TRUE(has_note(w, "inferred from one process's log"));
}

const std::string kPrefix = "h:1:1 [0] NCCL INFO ";
std::string call_line(const std::string& name, int datatype, int nranks, const std::string& comm = "0x10") {
  return kPrefix + name + ": opCount 0 sendbuff 0x1 recvbuff 0x2 count 16 datatype " +
         std::to_string(datatype) + " op 0 root 0 comm " + comm + " [nranks=" + std::to_string(nranks) +
         "] stream 0x3\n";
}

TEST(NcclLog, BadInputIsAnInputErrorNamingTheFile) {
  EXPECT_NE(error_of([] { read_text(kPrefix + "NET/IB : No device found.\n"); }).find("test.log"),
            std::string::npos);
  EXPECT_NE(error_of([] { read_text(call_line("AllReduce", 10, 2)); }).find("ncclFloat8e4m3"),
            std::string::npos);
  EXPECT_NE(error_of([] { read_text(call_line("AllReduce", 12, 2)); }).find("test.log:1: datatype 12"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              read_text(call_line("AllReduce", 7, 2) + call_line("AllReduce", 7, 4));
            }).find("test.log:2: communicator 0x10 has nranks=4 here and 2 before"),
            std::string::npos);
  EXPECT_NE(error_of([] { read_text(call_line("Send", 7, 2)); }).find("no all-reduce"), std::string::npos);
  EXPECT_NE(error_of([] { read_nccl_logs({kDir}, {}); }).find("not a regular file"), std::string::npos);
  EXPECT_NE(error_of([] { read_nccl_logs({kDir + "missing.log"}, {}); }).find("cannot open"),
            std::string::npos);
  EXPECT_NE(error_of([] { read_nccl_logs({}, {}); }).find("no file"), std::string::npos);
}

// A fuzzer's find (CI, 2026-12-04): an init line naming its own address as its parent read the
// group of a communicator not yet added (a heap overflow). The parent is the communicator that held
// the address before the line, here the world; with none, the group is unknown.
TEST(NcclLog, AnInitLineWhoseParentIsItsOwnAddressReadsTheCommunicatorBefore) {
  const std::string world = kPrefix +
                            "ncclCommInitRank comm 0x10 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 0 "
                            "commId 0x99 - Init COMPLETE\n";
  const std::string self_split =
      kPrefix +
      "ncclCommSplit comm 0x10 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 0 parent 0x10 "
      "splitCount 1 color 0 key 0 - Init COMPLETE\n";
  for (const std::string& text : {self_split, world + self_split}) {
    NcclLogScanner scanner;
    std::istringstream in(text + call_line("AllReduce", 7, 2));
    scanner.scan(in, "test.log");
    const NcclScan scan = scanner.finish();
    ASSERT_EQ(scan.comms.size(), text == world + self_split ? 2u : 1u);
    EXPECT_EQ(scan.comms.back().group, text == self_split ? "" : "split 1 color 0 of (id 0x99)");
    EXPECT_EQ(scan.comms.back().calls.calls(), 1u);
  }
}

TEST(NcclLog, APartitionNoSpecGivesIsRefused) {
  std::string text;  // 4 ranks on one host, groups {0,3} and {1,2}: no world/intra/inter/split gives it
  for (int r = 0; r < 4; ++r) {
    const std::string p = "h:" + std::to_string(r) + ":1 [0] NCCL INFO ";
    text += p + "ncclCommInitRank comm 0x10 rank " + std::to_string(r) +
            " nranks 4 cudaDev 0 nvmlDev 0 busId 0 commId 0x99 - Init COMPLETE\n";
    text += p +
            "ncclCommSplit comm 0x20 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 0 parent 0x10 splitCount 1 "
            "color " +
            std::to_string(r == 0 || r == 3 ? 0 : 1) + " key 0 - Init COMPLETE\n";
    text += "h:" + std::to_string(r) + ":1 [0] NCCL INFO " +
            call_line("AllReduce", 7, 2, "0x20").substr(kPrefix.size());
  }
  EXPECT_NE(error_of([&] { read_text(text); }).find("shape commtune cannot express"), std::string::npos);
}

TEST(TorchTrace, RankZerosTraceGivesTheSameStepAsTheLog) {
  const Workload w = read_torch_trace(kDir + "rank0.pt.trace.json");
  EXPECT_EQ(w.world_ranks, 8);
  EXPECT_EQ(w.collectives, two_comms_step());
  EXPECT_EQ(w.source.kind, "torch-trace");
  EXPECT_TRUE(has_note(w, "4 ProfilerStep spans"));
  EXPECT_TRUE(has_note(w, "send x4"));
}

nlohmann::json one_event_trace(const nlohmann::json& args) {
  return {{"traceEvents",
           {{{"ph", "X"},
             {"cat", "cpu_op"},
             {"name", "record_param_comms"},
             {"ts", 1.0},
             {"dur", 1.0},
             {"args", args}}}}};
}

TEST(TorchTrace, BadInputIsAnInputError) {
  const nlohmann::json good = {{"Collective name", "allreduce"},
                               {"dtype", "Float"},
                               {"In msg nelems", 4},
                               {"Out msg nelems", 4},
                               {"Group size", 2},
                               {"Process Group Ranks", "[0, 1]"}};
  EXPECT_EQ(torch_trace_from_json(one_event_trace(good), "t.json").collectives.size(), 1u);
  EXPECT_NE(error_of([] {
              torch_trace_from_json({{"traceEvents", nlohmann::json::array()}}, "t.json");
            }).find("t.json: no communication events"),
            std::string::npos);
  EXPECT_NE(error_of([] { torch_trace_from_json(nlohmann::json::array(), "t.json"); }).find("t.json"),
            std::string::npos);
  nlohmann::json bad = good;
  bad["dtype"] = "ComplexFloat";
  EXPECT_NE(error_of([&] { torch_trace_from_json(one_event_trace(bad), "t.json"); }).find("ComplexFloat"),
            std::string::npos);
  bad = good;
  bad["Process Group Ranks"] = "[0, 1, 2]";
  EXPECT_NE(error_of([&] { torch_trace_from_json(one_event_trace(bad), "t.json"); }).find("Group size"),
            std::string::npos);
  bad = good;
  bad["In msg nelems"] = -1;
  EXPECT_NE(error_of([&] { torch_trace_from_json(one_event_trace(bad), "t.json"); }).find("In msg nelems"),
            std::string::npos);
  bad = good;
  bad.erase("Group size");
  EXPECT_NE(error_of([&] { torch_trace_from_json(one_event_trace(bad), "t.json"); }).find("Group size"),
            std::string::npos);
}

// The real DDP job of the H200 device check (tests/fixtures/workload/README.md): its NCCL logs and
// rank 0's profiler trace give the same step.
TEST(RealDdpJob, NcclLogsAndTorchTraceGiveTheSameStep) {
  const std::string dir = std::string(COMMTUNE_SOURCE_DIR) + "/tests/fixtures/workload/h200-ddp-tiny/";
  const Workload log = read_nccl_logs({dir + "nccl-rank0.log", dir + "nccl-rank1.log"}, {});
  const Workload trace = read_torch_trace(dir + "trace-rank0.json", {});
  ASSERT_EQ(log.collectives.size(), 2u);
  EXPECT_EQ(log.world_ranks, 2);
  EXPECT_EQ(trace.world_ranks, 2);
  const std::vector<std::uint64_t> buckets{1083456, 526336};
  for (std::size_t i = 0; i < 2; ++i) {
    const WorkloadCollective& c = log.collectives[i];
    EXPECT_EQ(c.collective, Collective::AllReduce);
    EXPECT_EQ(c.bytes, buckets[i]);
    EXPECT_EQ(c.datatype, DataType::Float32);
    EXPECT_TRUE(c.group.is_world());
    EXPECT_EQ(c.group_ranks, 2);
    EXPECT_EQ(c.count, 1u);
  }
  EXPECT_EQ(trace.collectives, log.collectives);
}

}  // namespace
}  // namespace commtune
