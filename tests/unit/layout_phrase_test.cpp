// How the banner and the table name ranks, nodes and ranks per node, from provenance.layout.
#include <gtest/gtest.h>

#include "writers/layout_phrase.hpp"

namespace commtune {
namespace {

TEST(LayoutPhrase, NamesRanksNodesAndRanksPerNode) {
  EXPECT_EQ(layout_phrase(8, {{"nhosts", 4}, {"local_sizes", {2, 2, 2, 2}}}),
            "8 ranks, 4 nodes, 2 ranks per node");
  EXPECT_EQ(layout_phrase(1, {{"nhosts", 1}, {"local_sizes", {1}}}), "1 rank, 1 node, 1 rank per node");
  EXPECT_EQ(layout_phrase(4, {{"nhosts", 1}, {"local_sizes", {4}}}), "4 ranks, 1 node, 4 ranks per node");
}

TEST(LayoutPhrase, UnevenNodesGiveTheRange) {
  EXPECT_EQ(layout_phrase(7, {{"local_sizes", {3, 2, 2}}}), "7 ranks, 3 nodes, 2 to 3 ranks per node");
}

TEST(LayoutPhrase, WithoutAUsableLayoutOnlyTheRanks) {
  EXPECT_EQ(layout_phrase(4, nlohmann::json()), "4 ranks");
  EXPECT_EQ(layout_phrase(4, {{"nranks", 4}}), "4 ranks");
  EXPECT_EQ(layout_phrase(4, {{"local_sizes", {2, "two"}}}), "4 ranks");
  EXPECT_EQ(layout_phrase(4, {{"local_sizes", {4, 0}}}), "4 ranks");
  EXPECT_EQ(layout_phrase(4, {{"local_sizes", nlohmann::json::array()}}), "4 ranks");
}

}  // namespace
}  // namespace commtune
