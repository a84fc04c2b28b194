#include "measure/contention.hpp"

#include <chrono>
#include <cmath>
#include <string>

#include "core/errors.hpp"

namespace commtune {
namespace {

constexpr std::size_t kBufferWords = (64u << 20) / sizeof(std::uint64_t);  // 64 MiB: beyond the caches
constexpr auto kPeriod = std::chrono::microseconds(1000);

// One pass over a slice of the buffer: a read and a write of every word (memory-bound).
std::uint64_t stream_slice(std::vector<std::uint64_t>& buffer, std::size_t first, std::size_t words) {
  std::uint64_t sum = 0;
  for (std::size_t i = first; i < first + words; ++i) {
    sum += buffer[i];
    buffer[i] = sum;
  }
  return sum;
}

}  // namespace

double parse_contention(double fraction, const char* input) {
  if (!(fraction > 0 && fraction <= 1))
    throw InputError(std::string(input) + ": expected a fraction of the device above 0 and at most 1, got " +
                     std::to_string(fraction));
  return fraction;
}

CpuContender::CpuContender(double fraction)
    : fraction_(parse_contention(fraction, "contention")),
      buffer_(kBufferWords, 1),
      thread_([this] { run(); }) {}

CpuContender::~CpuContender() {
  stop_ = true;
  thread_.join();
}

// Busy for fraction x period (in slices of 64 KiB, checking the clock between them), then asleep.
void CpuContender::run() {
  constexpr std::size_t kSlice = (64u << 10) / sizeof(std::uint64_t);
  const auto busy = std::chrono::duration_cast<std::chrono::nanoseconds>(kPeriod * fraction_);
  std::size_t at = 0;
  volatile std::uint64_t sink = 0;
  while (!stop_) {
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < busy && !stop_) {
      sink = sink + stream_slice(buffer_, at, kSlice);
      at = (at + kSlice) % buffer_.size();
      streamed_ += kSlice * sizeof(std::uint64_t) * 2;
    }
    if (fraction_ < 1) std::this_thread::sleep_until(start + kPeriod);
  }
}

}  // namespace commtune
