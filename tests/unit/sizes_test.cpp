#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "plan/sizes.hpp"

namespace commtune {
namespace {

TEST(ParseSize, PlainNumbersAreBytes) {
  EXPECT_EQ(parse_size("8"), 8u);
  EXPECT_EQ(parse_size("0"), 0u);
  EXPECT_EQ(parse_size("123456"), 123456u);
}

TEST(ParseSize, SuffixesAreBinaryAndCaseInsensitive) {
  EXPECT_EQ(parse_size("1K"), 1024u);
  EXPECT_EQ(parse_size("1k"), 1024u);
  EXPECT_EQ(parse_size("4M"), 4u << 20);
  EXPECT_EQ(parse_size("2G"), 2ull << 30);
  EXPECT_EQ(parse_size("16MB"), 16u << 20);
  EXPECT_EQ(parse_size("2KiB"), 2048u);
  EXPECT_EQ(parse_size("3B"), 3u);
}

TEST(ParseSize, RejectsGarbageWithInputError) {
  for (const char* bad : {"", "K", "-1", "1X", "1KX", "1.5M", "M1", "1 K", "99999999999999999999"})
    EXPECT_THROW(parse_size(bad), InputError) << bad;
  EXPECT_THROW(parse_size("99999999999G"), InputError);
}

TEST(ParseSize, OnlyKMGAndAtMost64GiB) {
  EXPECT_EQ(parse_size("64G"), kMaxSizeBytes);
  for (const char* bad : {"1T", "1TB", "1P", "65G", "68719476737"})
    EXPECT_THROW(parse_size(bad), InputError) << bad;
}

TEST(ExpandSizes, RefusesMoreThanTenThousandSizes) {
  EXPECT_THROW(expand(SizeRange{1, 64ull << 30, 1.0, 1}), InputError);
  EXPECT_EQ(expand(SizeRange{1, 10000, 1.0, 1}).size(), 10000u);
  EXPECT_THROW(expand(SizeRange{8, 1024, 1e9, 0}), InputError);  // factor above 1024
}

TEST(ExpandSizes, SmallFactorsStillGrowFromOneByte) {
  EXPECT_EQ(expand(SizeRange{1, 4, 1.5, 0}), (std::vector<std::uint64_t>{1, 2, 3, 4}));
}

TEST(FormatSize, UsesBinaryUnits) {
  EXPECT_EQ(format_size(8), "8 B");
  EXPECT_EQ(format_size(4096), "4 KiB");
  EXPECT_EQ(format_size(1536 * 1024), "1.5 MiB");
  EXPECT_EQ(format_size(1ull << 30), "1 GiB");
}

TEST(ExpandSizes, MultipliesByFactorUpToMaxInclusive) {
  const auto sizes = expand(SizeRange{8, 128, 2.0, 0});
  EXPECT_EQ(sizes, (std::vector<std::uint64_t>{8, 16, 32, 64, 128}));
}

TEST(ExpandSizes, StopsBeforeExceedingMax) {
  EXPECT_EQ(expand(SizeRange{8, 100, 4.0, 0}), (std::vector<std::uint64_t>{8, 32}));
}

TEST(ExpandSizes, AdditiveStepWhenFactorIsOne) {
  EXPECT_EQ(expand(SizeRange{100, 400, 1.0, 100}), (std::vector<std::uint64_t>{100, 200, 300, 400}));
}

TEST(ExpandSizes, SingleSizeNeedsNoStep) { EXPECT_EQ(expand(SizeRange{64, 64, 1.0, 0}).size(), 1u); }

TEST(ExpandSizes, RejectsImpossibleRanges) {
  EXPECT_THROW(expand(SizeRange{128, 8, 2.0, 0}), InputError);
  EXPECT_THROW(expand(SizeRange{0, 8, 2.0, 0}), InputError);
  EXPECT_THROW(expand(SizeRange{8, 128, 1.0, 0}), InputError);
  EXPECT_THROW(expand(SizeRange{8, 128, -2.0, 0}), InputError);
}

TEST(ExpandSizes, NonIntegerFactorStillProgresses) {
  const auto sizes = expand(SizeRange{8, 64, 1.5, 0});
  ASSERT_GE(sizes.size(), 5u);
  for (std::size_t i = 1; i < sizes.size(); ++i) EXPECT_GT(sizes[i], sizes[i - 1]);
  EXPECT_LE(sizes.back(), 64u);
}

}  // namespace
}  // namespace commtune
