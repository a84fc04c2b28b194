#pragma once
// Results indexed the way the tuner asks for them: the cases of one setting at one
// (collective, size), every placement; the sizes measured per collective; and which settings
// can never be recommended (any wrong data or failure).
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "results/results_document.hpp"

namespace commtune {

struct SizeKey {
  Collective collective;
  std::uint64_t bytes;
  std::string group = "world";  // the case's group spec (GroupSpec::name()): its communicators
  auto operator<=>(const SizeKey&) const = default;
};

SizeKey key_of(const Case& c);

// The case of `p` among one setting's cases at one size; null when that placement was not measured.
const CaseResult* case_in_placement(const std::vector<const CaseResult*>& cases, Placement p);

class CaseIndex {
 public:
  explicit CaseIndex(const ResultsDocument& results);

  // Every placement's case of `setting` at `key`; empty when not measured.
  const std::vector<const CaseResult*>& cases(const std::string& setting, const SizeKey& key) const;
  // Sizes the default measured (ok), in order of collective then size.
  // Every (collective, size, group spec) the default measured ok.
  std::vector<SizeKey> default_sizes() const;
  // Settings with a case at `key`, in results order, the default excluded.
  std::vector<std::string> candidates(const SizeKey& key) const;
  // setting -> the first reason it can never be recommended.
  const std::map<std::string, std::string>& disqualified() const { return disqualified_; }
  int nranks() const { return nranks_; }

 private:
  std::map<std::pair<std::string, SizeKey>, std::vector<const CaseResult*>> cases_;
  std::vector<std::string> setting_order_;
  std::map<std::string, std::string> disqualified_;
  int nranks_ = 0;
};

}  // namespace commtune
