#include "tuner_plugin/tuner_match.hpp"

namespace commtune::tuner {

namespace {

bool matches(std::int64_t wanted, std::uint64_t actual) {
  return wanted < 0 || static_cast<std::uint64_t>(wanted) == actual;
}

bool available(float cost) { return cost >= 0.0f; }

}  // namespace

int first_matching_rule(const std::vector<TunerRule>& rules, const CollQuery& q) {
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const auto& r = rules[i];
    if (r.function != q.function || q.bytes < r.min_bytes || q.bytes > r.max_bytes) continue;
    if (!matches(r.nnodes, q.nnodes) || !matches(r.nranks, q.nranks)) continue;
    if (r.num_pipe_ops >= 0 && (q.num_pipe_ops < 0 || r.num_pipe_ops != q.num_pipe_ops)) continue;
    if (r.reg_buff >= 0 && r.reg_buff != (q.reg_buff != 0 ? 1 : 0)) continue;
    return static_cast<int>(i);
  }
  return -1;
}

Apply apply_rule(const TunerRule& rule, float* table, int num_algo, int num_proto, int* nchannels) {
  const bool sets_channels = rule.channels > 0;
  if (rule.algorithm < 0 && rule.protocol < 0) {
    if (!sets_channels) return Apply::nothing;
    if (nchannels != nullptr) *nchannels = rule.channels;
    return Apply::applied;
  }
  if (table == nullptr || num_algo <= 0 || num_proto <= 0) return Apply::unavailable;
  if (rule.algorithm >= num_algo || rule.protocol >= num_proto) return Apply::unavailable;
  // The entry to force: the rule's, or NCCL's cheapest available one along the free dimension.
  int best_a = -1, best_p = -1;
  for (int a = 0; a < num_algo; ++a) {
    if (rule.algorithm >= 0 && a != rule.algorithm) continue;
    for (int p = 0; p < num_proto; ++p) {
      if (rule.protocol >= 0 && p != rule.protocol) continue;
      const float cost = table[static_cast<std::size_t>(a) * static_cast<std::size_t>(num_proto) +
                               static_cast<std::size_t>(p)];
      if (!available(cost)) continue;
      if (best_a < 0 || cost < table[static_cast<std::size_t>(best_a) * static_cast<std::size_t>(num_proto) +
                                     static_cast<std::size_t>(best_p)]) {
        best_a = a;
        best_p = p;
      }
    }
  }
  if (best_a < 0) return Apply::unavailable;
  table[static_cast<std::size_t>(best_a) * static_cast<std::size_t>(num_proto) +
        static_cast<std::size_t>(best_p)] = 0.0f;
  if (sets_channels && nchannels != nullptr) *nchannels = rule.channels;
  return Apply::applied;
}

}  // namespace commtune::tuner
