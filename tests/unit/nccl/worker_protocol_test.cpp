// The supervisor <-> worker protocol: round trips and what counts as a broken reply.
#include <gtest/gtest.h>

#include "backend/nccl/line_channel.hpp"
#include "backend/nccl/worker_protocol.hpp"

namespace commtune {
namespace {

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
  const CaseRequest back = case_request_from_json(to_json(request));
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
