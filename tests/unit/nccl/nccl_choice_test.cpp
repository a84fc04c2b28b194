// What NCCL chose, recorded per case of the default setting: the record reader (lines, growth,
// missing, empty, malformed, hostile records), whether and how a sweep records (the environment's
// own tuner plugin left alone), the private record files, and the results field's JSON.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "backend/nccl/supervisor/plugin_record_file.hpp"
#include "backend/nccl/supervisor/choice_capture.hpp"
#include "backend/nccl/supervisor/choice_capture.hpp"
#include "core/errors.hpp"
#include "host/environment_tuner_plugin.hpp"
#include "host/tuner_plugin_location.hpp"
#include "results/results_json.hpp"
#include "run_commtune.hpp"

namespace commtune {
namespace {

using testing::ScratchDir;

void append(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::app) << text; }

TEST(RecordLine, ParsesWhatThePluginWrites) {
  std::string error;
  const auto line = parse_record_line("allreduce,1048576,ring,ll128,-1,1,4,1,0", error);
  ASSERT_TRUE(line) << error;
  EXPECT_EQ(line->collective, "allreduce");
  EXPECT_EQ(line->bytes, 1048576u);
  EXPECT_EQ(line->choice, recorded_choice("ring", "ll128"));
  const auto channels = parse_record_line("allgather,64,nvls_tree,simple,16,2,16,1,1", error);
  ASSERT_TRUE(channels) << error;
  EXPECT_EQ(channels->choice.channels, 16);
  const auto none = parse_record_line("broadcast,8,-1,-1,-1,1,2,1,0", error);  // every entry unavailable
  ASSERT_TRUE(none) << error;
  EXPECT_FALSE(none->choice.recorded);
  EXPECT_NE(none->choice.reason.find("unavailable"), std::string::npos);
}

TEST(RecordLine, RefusesWhatThePluginNeverWrites) {
  for (const char* bad :
       {"", "allreduce,8,ring,ll,-1,1,2,1", "allreduce,8,ring,ll,-1,1,2,1,0,9",
        "alltoall,8,ring,ll,-1,1,2,1,0", "allreduce,-8,ring,ll,-1,1,2,1,0",
        "allreduce,8.5,ring,ll,-1,1,2,1,0", "allreduce,99999999999999999999999,ring,ll,-1,1,2,1,0",
        "allreduce,8,RING,ll,-1,1,2,1,0", "allreduce,8,ring,-1,-1,1,2,1,0", "allreduce,8,ring,ll,0,1,2,1,0",
        "allreduce,8,ring,ll,5000,1,2,1,0", "allreduce,8,ring,ll,-1,0,2,1,0",
        "allreduce,8,ring,ll,-1,1,2,1,2", "allreduce,8,ring,ll ,-1,1,2,1,0"}) {
    std::string error;
    EXPECT_FALSE(parse_record_line(bad, error)) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
}

TEST(PluginRecordFile, ReadsLinesAsTheyAreAppendedAndKeepsTheFirstPerSize) {
  ScratchDir dir;
  const std::string path = dir.file("rank-0.record");
  PluginRecordFile record(path);
  EXPECT_NE(record.choice_for(Collective::AllReduce, 1024).reason.find("did not load"), std::string::npos);
  append(path, "");
  EXPECT_NE(record.choice_for(Collective::AllReduce, 1024).reason.find("empty"), std::string::npos);
  append(path,
         "allreduce,4,tree,ll,-1,1,2,1,0\nallreduce,1024,tree,ll128,-1,1,2,1,0\nallreduce,1024,ring,simple,-"
         "1,1,2,1,1\n");
  EXPECT_EQ(record.choice_for(Collective::AllReduce, 1024), recorded_choice("tree", "ll128"));
  EXPECT_NE(record.choice_for(Collective::AllGather, 1024).reason.find("no line for allgather of 1024 bytes"),
            std::string::npos);
  append(path, "allgather,1024,ring,");  // a line still being written
  EXPECT_FALSE(record.choice_for(Collective::AllGather, 1024).recorded);
  append(path, "ll,-1,1,2,1,0\n");
  EXPECT_EQ(record.choice_for(Collective::AllGather, 1024), recorded_choice("ring", "ll"));
}

TEST(PluginRecordFile, AMalformedLineMeansNothingIsTrustedButNothingFails) {
  ScratchDir dir;
  const std::string path = dir.file("r");
  append(path, "allreduce,1024,tree,ll,-1,1,2,1,0\nthis is not a record\n");
  PluginRecordFile record(path);
  const NcclChoice c = record.choice_for(Collective::AllReduce, 1024);
  EXPECT_FALSE(c.recorded);
  EXPECT_NE(c.reason.find("line 2"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("malformed"), std::string::npos) << c.reason;
}

TEST(PluginRecordFile, HostileRecordsAreNotRecordedWithTheirReason) {
  ScratchDir dir;
  append(dir.file("long"), std::string(100000, 'a'));  // no newline, far too long
  EXPECT_NE(
      PluginRecordFile(dir.file("long")).choice_for(Collective::AllReduce, 8).reason.find("longer than"),
      std::string::npos);
  std::filesystem::create_directory(dir.file("dir"));
  EXPECT_FALSE(PluginRecordFile(dir.file("dir")).choice_for(Collective::AllReduce, 8).recorded);
  append(dir.file("target"), "allreduce,8,ring,ll,-1,1,2,1,0\n");
  std::filesystem::create_symlink(dir.file("target"), dir.file("link"));
  const NcclChoice through_link = PluginRecordFile(dir.file("link")).choice_for(Collective::AllReduce, 8);
  EXPECT_FALSE(through_link.recorded);  // never read through a symbolic link
  EXPECT_NE(through_link.reason.find("cannot read"), std::string::npos) << through_link.reason;
  {
    std::ofstream big(dir.file("big"));
    const std::string line = "allreduce,8,ring,ll,-1,1,2,1,0\n";
    for (std::uint64_t written = 0; written <= kMaxRecordBytes; written += line.size()) big << line;
  }
  EXPECT_NE(PluginRecordFile(dir.file("big")).choice_for(Collective::AllReduce, 8).reason.find("larger than"),
            std::string::npos);
}

TEST(ChoiceCapturePlan, TheEnvironmentsOwnTunerStaysAndIsSaid) {
  const TunerPluginLocation ours{"/opt/commtune/lib/libnccl-tuner-commtune.so", {"v5", "v6"}, ""};
  EXPECT_EQ(plan_choice_capture("", ours, 2).plugin, ours.path);
  const ChoiceCapturePlan theirs = plan_choice_capture("NCCL_TUNER_PLUGIN=libnccl-tuner-ofi.so", ours, 2);
  EXPECT_TRUE(theirs.plugin.empty());
  EXPECT_EQ(
      theirs.not_recorded,
      "tuner plugin of the environment: NCCL_TUNER_PLUGIN=libnccl-tuner-ofi.so; NCCL's choice not recorded");
  EXPECT_EQ(theirs.provenance()["recorded"], false);
  const ChoiceCapturePlan missing =
      plan_choice_capture("", TunerPluginLocation{"", {}, "not beside this executable"}, 2);
  EXPECT_TRUE(missing.plugin.empty());
  EXPECT_NE(missing.not_recorded.find("not beside this executable"), std::string::npos);
  EXPECT_TRUE(plan_choice_capture("", TunerPluginLocation{"/x.so", {"v6"}, ""}, 2)
                  .plugin.empty());  // NCCL 2.28 needs v5
}

// NCCL 2.28 runs a one-rank communicator's collectives through ncclLaunchOneRank, without its
// tuner: nothing to record there, whatever plugin is at hand.
TEST(ChoiceCapturePlan, NothingToRecordAtOneRank) {
  const TunerPluginLocation ours{"/opt/commtune/lib/libnccl-tuner-commtune.so", {"v5"}, ""};
  const ChoiceCapturePlan one = plan_choice_capture("", ours, 1);
  EXPECT_TRUE(one.plugin.empty());
  EXPECT_EQ(one.not_recorded, kNotAskedAtOneRank);
  EXPECT_EQ(one.provenance()["recorded"], false);
  EXPECT_EQ(plan_choice_capture("", ours, 2).plugin, ours.path);
}

TEST(EnvironmentTunerPlugin, FollowsNcclsLoadingOrder) {
  std::vector<std::string> loaded;
  auto probe_with = [&](std::vector<std::string> present, bool net_has_tuner) {
    return LibraryProbe{[&loaded, present](const std::string& name) {
                          loaded.push_back(name);
                          return std::find(present.begin(), present.end(), name) != present.end();
                        },
                        [net_has_tuner](const std::string&) { return net_has_tuner; }};
  };
  EXPECT_EQ(environment_tuner_plugin({"NCCL_TUNER_PLUGIN=none"}, probe_with({}, false)),
            "NCCL_TUNER_PLUGIN=none");
  EXPECT_TRUE(loaded.empty());  // a variable that is set is not probed further
  EXPECT_EQ(environment_tuner_plugin({"PATH=/bin"}, probe_with({}, false)), "");
  EXPECT_NE(environment_tuner_plugin({}, probe_with({"libnccl-tuner.so"}, false)).find("libnccl-tuner.so"),
            std::string::npos);
  EXPECT_NE(environment_tuner_plugin({}, probe_with({"libnccl-net.so"}, true))
                .find("libnccl-net.so (the net plugin"),
            std::string::npos);
  EXPECT_EQ(environment_tuner_plugin({}, probe_with({"libnccl-net.so"}, false)),
            "");  // a net plugin without a tuner
  EXPECT_NE(environment_tuner_plugin({"NCCL_NET_PLUGIN=ofi"}, probe_with({"libnccl-net-ofi.so"}, true))
                .find("libnccl-net-ofi.so"),
            std::string::npos);
  EXPECT_NE(environment_tuner_plugin({"NCCL_TUNER_PLUGIN_X=1", "NCCL_TUNER_PLUGIN="}, probe_with({}, false)),
            "");
}

TEST(ChoiceCapture, OnlyTheDefaultSettingRecordsIntoPrivateFiles) {
  const ChoiceCapturePlan recording{"/opt/libnccl-tuner-commtune.so", ""};
  EXPECT_EQ(ChoiceCapture::for_setting(Setting{"ring", "", {{"NCCL_ALGO", "Ring"}}, {}}, recording, 0),
            nullptr);
  std::string dir;
  {
    auto source = ChoiceCapture::for_setting(Setting{"default", "", {}, {}}, recording, 2);
    ASSERT_NE(source, nullptr);
    const auto variables = source->worker_variables(3);
    EXPECT_EQ(variables.at("NCCL_TUNER_PLUGIN"), recording.plugin);
    const std::string file = variables.at("COMMTUNE_TUNER_RECORD");
    dir = std::filesystem::path(file).parent_path().string();
    struct stat info {};
    ASSERT_EQ(::lstat(dir.c_str(), &info), 0);
    EXPECT_TRUE(S_ISDIR(info.st_mode));
    EXPECT_EQ(info.st_mode & 0777, 0700u);
    EXPECT_EQ(info.st_uid, ::geteuid());
    EXPECT_NE(file, source->worker_variables(2).at("COMMTUNE_TUNER_RECORD"));  // one file per worker
    append(source->worker_variables(2).at("COMMTUNE_TUNER_RECORD"), "broadcast,64,ring,simple,-1,1,4,1,0\n");
    Case c;
    c.collective = Collective::Broadcast;
    c.bytes = 64;
    EXPECT_EQ(source->choice_for(c), recorded_choice("ring", "simple"));  // the first worker's record
  }
  EXPECT_FALSE(std::filesystem::exists(dir));  // removed with the setting
  auto untouched = ChoiceCapture::for_setting(Setting{"default", "", {}, {}},
                                              ChoiceCapturePlan{"", "tuner plugin of the environment: X"}, 0);
  ASSERT_NE(untouched, nullptr);
  EXPECT_TRUE(untouched->worker_variables(0).empty());
  EXPECT_EQ(untouched->choice_for(Case{}), unrecorded_choice("tuner plugin of the environment: X"));
}

TEST(NcclChoiceJson, RoundTripsAndValidates) {
  for (const NcclChoice& c :
       {recorded_choice("ring", "ll128"), recorded_choice("nvls", "simple", 16), unrecorded_choice("why")})
    EXPECT_EQ(nccl_choice_from_json(to_json(c), "c"), c);
  EXPECT_EQ(describe(recorded_choice("nvls_tree", "ll128")), "NVLS_TREE/LL128");
  EXPECT_EQ(describe(unrecorded_choice("why")), "not recorded (why)");
  for (const char* bad :
       {R"([])", R"({})", R"({"recorded": "yes"})", R"({"recorded": true, "protocol": "ll"})",
        R"({"recorded": true, "algorithm": "Ring", "protocol": "ll"})",
        R"({"recorded": true, "algorithm": "ring", "protocol": "LL"})",
        R"({"recorded": true, "algorithm": "ring", "protocol": "ll", "channels": 0})",
        R"({"recorded": true, "algorithm": "ring", "protocol": "ll", "channels": 1.5})",
        R"({"recorded": false})", R"({"recorded": false, "reason": ""})"})
    EXPECT_THROW(nccl_choice_from_json(nlohmann::json::parse(bad), "cases[0].nccl_choice"), InputError)
        << bad;
}

}  // namespace
}  // namespace commtune
