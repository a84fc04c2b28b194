// Typed control messages: a value goes through the one codec (nlohmann_json's to_json/from_json
// of its type) and arrives equal; a message that does not decode is a ControlError, never a value.
#include <gtest/gtest.h>

#include "control/local_control_plane.hpp"
#include "control/typed_messages.hpp"
#include "core/errors.hpp"
#include "tune/tuner.hpp"

namespace commtune {
namespace {

TEST(TypedMessages, ValuesRoundTripThroughTheOneCodec) {
  LocalControlPlane control;
  EXPECT_EQ(broadcast_value(control, 1), 1);
  EXPECT_TRUE(broadcast_value(control, true));
  EXPECT_EQ(gather_values(control, std::string("n1")), std::vector<std::string>{"n1"});
  const std::vector<std::size_t> indices{3, 1, 4};
  EXPECT_EQ(broadcast_value(control, indices), indices);
  const std::vector<Finalists> finalists{{SizeKey{Collective::ReduceScatter, 1u << 20}, {"ring", "tree"}}};
  const auto back = broadcast_value(control, finalists);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].key, finalists[0].key);
  EXPECT_EQ(back[0].settings, finalists[0].settings);
}

TEST(TypedMessages, AMessageThatDoesNotDecodeIsAControlError) {
  EXPECT_THROW(control_codec::decode<int>("not json"), ControlError);
  EXPECT_THROW(control_codec::decode<int>("\"a string\""), ControlError);
  EXPECT_THROW(control_codec::decode<std::vector<Finalists>>(R"([{"bytes": 8}])"), ControlError);
  EXPECT_THROW(control_codec::decode<std::vector<Finalists>>(
                   R"([{"collective": "alltoall", "bytes": 8, "settings": []}])"),
               ControlError);  // not an InputError: nothing the user typed
  EXPECT_EQ(control_codec::decode<int>(control_codec::encode(42)), 42);
}

}  // namespace
}  // namespace commtune
