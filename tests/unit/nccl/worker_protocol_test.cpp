// The supervisor <-> worker protocol: round trips and what counts as a broken reply.
#include <gtest/gtest.h>

#include "backend/nccl/line_channel.hpp"
#include "backend/nccl/worker_protocol.hpp"

namespace commtune {
namespace {

TEST(WorkerProtocol, ATimeRequestCarriesWholeBlocks) {
  const nlohmann::json plain = nlohmann::json::parse(time_request_line(40, 1));
  EXPECT_FALSE(plain.contains("block"));
  EXPECT_EQ(time_block_of(plain), 1u);
  EXPECT_EQ(time_block_of(nlohmann::json::parse(time_request_line(40, 8))), 8u);
  EXPECT_THROW(time_block_of(nlohmann::json::parse(time_request_line(40, 7))),
               ProtocolError);  // not whole blocks
  EXPECT_THROW(time_block_of(nlohmann::json{{"op", "time"}, {"iterations", 4000}, {"block", 2000}}),
               ProtocolError);
}

TEST(WorkerProtocol, CaseRequestRoundTrips) {
  CaseRequest request;
  request.spec.index = 7;
  request.spec.collective = Collective::AllGather;
  request.spec.bytes = 4096;
  request.spec.count = 512;
  request.spec.dtype = DataType::BFloat16;
  request.spec.op = ReduceOp::Max;
  request.spec.root = -1;
  request.spec.placement = Placement::InPlace;
  request.graph = true;
  request.largest_bytes = 64u << 20;
  const CaseRequest back = case_request_from_json(to_json(request));
  EXPECT_EQ(back.largest_bytes, 64u << 20);
  EXPECT_EQ(back.spec.index, 7u);
  EXPECT_EQ(back.spec.collective, Collective::AllGather);
  EXPECT_EQ(back.spec.bytes, 4096u);
  EXPECT_EQ(back.spec.count, 512u);
  EXPECT_EQ(back.spec.dtype, DataType::BFloat16);
  EXPECT_EQ(back.spec.op, ReduceOp::Max);
  EXPECT_EQ(back.spec.placement, Placement::InPlace);
  EXPECT_TRUE(back.graph);
}

TEST(WorkerProtocol, CommConfigKeepsOnlyWhatIsSet) {
  CommConfig config;
  config.max_ctas = 8;
  const CommConfig back = comm_config_from_json(to_json(config));
  EXPECT_FALSE(back.min_ctas);
  EXPECT_EQ(back.max_ctas, 8);
  EXPECT_TRUE(back.net_name.empty());
}

TEST(WorkerProtocol, TimedBatchRoundTrips) {
  const TimedBatch batch{{1e-6, 2e-6}, 3e-6};
  const TimedBatch back = timed_batch_from_json(nlohmann::json::parse(ok_reply_line(to_json(batch))));
  EXPECT_EQ(back.seconds, batch.seconds);
  EXPECT_DOUBLE_EQ(back.loop_seconds, batch.loop_seconds);
  EXPECT_FALSE(back.cpu_seconds.has_value());
  EXPECT_FALSE(back.wall_seconds.has_value());
}

TEST(WorkerProtocol, TimedBatchCarriesTheHostThreadsCpuAndWallSeconds) {
  TimedBatch batch{{1e-6}, 1e-6};
  batch.cpu_seconds = 0.25;
  batch.wall_seconds = 0.5;
  const TimedBatch back = timed_batch_from_json(nlohmann::json::parse(ok_reply_line(to_json(batch))));
  ASSERT_TRUE(back.cpu_seconds && back.wall_seconds);
  EXPECT_DOUBLE_EQ(*back.cpu_seconds, 0.25);
  EXPECT_DOUBLE_EQ(*back.wall_seconds, 0.5);
  const nlohmann::json negative{{"seconds", {1.0}}, {"loop_seconds", 1.0}, {"cpu_s", -1.0}, {"wall_s", 1.0}};
  EXPECT_THROW(timed_batch_from_json(negative), ProtocolError);
  const nlohmann::json half{
      {"seconds", {1.0}}, {"loop_seconds", 1.0}, {"cpu_s", 1.0}};  // wall seconds missing
  EXPECT_THROW(timed_batch_from_json(half), nlohmann::json::exception);
}

TEST(WorkerProtocol, PairwiseRequestRoundTrips) {
  const PairwiseRequest request{3, 4096, 7, 2, 9};
  const nlohmann::json line = nlohmann::json::parse(request_line("pairwise", to_json(request)));
  EXPECT_EQ(line["op"], "pairwise");
  const PairwiseRequest back = pairwise_request_from_json(line);
  EXPECT_EQ(back.peer, 3);
  EXPECT_EQ(back.bytes, 4096u);
  EXPECT_EQ(back.samples, 7);
  EXPECT_EQ(back.exchanges, 2);
  EXPECT_EQ(back.latency_exchanges, 9);
  EXPECT_EQ(pairwise_request_from_json(to_json(PairwiseRequest{-1, 8, 1, 1, 1})).peer,
            -1);  // sits the round out
}

nlohmann::json with(nlohmann::json j, const std::string& field, const nlohmann::json& value) {
  j[field] = value;
  return j;
}

TEST(WorkerProtocol, MalformedPairwiseRequestsAreRefused) {
  const nlohmann::json good = to_json(PairwiseRequest{1, 1024, 3, 2, 4});
  for (const auto& [field, value] : std::vector<std::pair<std::string, nlohmann::json>>{
           {"peer", -2}, {"bytes", 0}, {"samples", 0}, {"exchanges", -1}, {"latency_exchanges", 100001}})
    EXPECT_THROW(pairwise_request_from_json(with(good, field, value)), ProtocolError) << field;
  for (const char* field : {"peer", "bytes", "samples", "exchanges", "latency_exchanges"}) {
    nlohmann::json missing = good;
    missing.erase(field);
    EXPECT_THROW(pairwise_request_from_json(missing), nlohmann::json::exception) << field;
  }
  EXPECT_THROW(pairwise_request_from_json(with(good, "peer", "one")), nlohmann::json::exception);
}

TEST(WorkerProtocol, PairSamplesRoundTripAndMalformedOnesAreRefused) {
  const PairSamples samples{{12.5, 13.0}, {4.0, 4.5}};
  const std::string line = ok_reply_line(to_json(samples));
  const PairSamples back = pair_samples_from_json(parse_reply(line).body);
  EXPECT_EQ(back.gbps, samples.gbps);
  EXPECT_EQ(back.latency_us, samples.latency_us);
  EXPECT_TRUE(pair_samples_from_json(to_json(PairSamples{})).gbps.empty());  // a round sat out
  EXPECT_THROW(pair_samples_from_json(nlohmann::json{{"gbps", {1.0}}, {"latency_us", {1.0, 2.0}}}),
               ProtocolError);
  EXPECT_THROW(pair_samples_from_json(nlohmann::json{{"gbps", {-1.0}}, {"latency_us", {1.0}}}),
               ProtocolError);
  EXPECT_THROW(pair_samples_from_json(nlohmann::json{{"gbps", {0.0}}, {"latency_us", {1.0}}}), ProtocolError);
  EXPECT_THROW(pair_samples_from_json(nlohmann::json{{"gbps", {"fast"}}, {"latency_us", {1.0}}}),
               nlohmann::json::exception);
  EXPECT_THROW(pair_samples_from_json(nlohmann::json{{"latency_us", {1.0}}}), nlohmann::json::exception);
}

TEST(WorkerProtocol, RepliesParse) {
  EXPECT_TRUE(parse_reply(ok_reply_line({{"wrong", 3}})).ok);
  EXPECT_EQ(parse_reply(ok_reply_line({{"wrong", 3}})).body["wrong"], 3);
  const WorkerReply error = parse_reply(error_reply_line("ncclInvalidUsage: bad", false));
  EXPECT_FALSE(error.ok);
  EXPECT_FALSE(error.fatal);
  EXPECT_EQ(error.error, "ncclInvalidUsage: bad");
}

TEST(WorkerProtocol, GarbageIsAProtocolErrorWithPrintableText) {
  EXPECT_THROW(parse_reply("hello"), ProtocolError);
  EXPECT_THROW(parse_reply("{\"wrong\": 1}"), ProtocolError);
  try {
    parse_reply("\x01\xff{{");
  } catch (const ProtocolError& e) {
    EXPECT_EQ(std::string(e.what()).find('\xff'), std::string::npos);
  }
}

TEST(WorkerProtocol, RequestLinesAreSingleLines) {
  const std::string line = request_line("time", {{"iterations", 5}});
  EXPECT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  EXPECT_EQ(nlohmann::json::parse(line)["op"], "time");
}

TEST(LineChannel, FramesPartialWritesIntoLines) {
  LineBuffer buffer;
  buffer.append("{\"ok\":", 6);
  EXPECT_FALSE(buffer.take_line().has_value());
  buffer.append(" true}\n{\"a\"", 11);
  EXPECT_EQ(buffer.take_line(), std::optional<std::string>("{\"ok\": true}"));
  EXPECT_FALSE(buffer.take_line().has_value());
  buffer.append(":1}\n\n", 5);
  EXPECT_EQ(buffer.take_line(), std::optional<std::string>("{\"a\":1}"));
  EXPECT_EQ(buffer.take_line(), std::optional<std::string>(""));
}

}  // namespace
}  // namespace commtune
