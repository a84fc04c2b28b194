#include "results/arrivals_json.hpp"

#include <cmath>

#include "core/errors.hpp"
#include "core/json_fields.hpp"
#include "core/plausible_bounds.hpp"

namespace commtune {

using nlohmann::json;

namespace {

const json& per_rank_list(const json& j, const char* key, const std::string& where, int nranks) {
  const json& list = required_field(j, key, where);
  if (!list.is_array() || list.size() != static_cast<std::size_t>(nranks))
    bad_value(member_path(where, key), "a list of one value per rank (" + std::to_string(nranks) + ")", list);
  return list;
}

std::vector<std::int64_t> counts_at(const json& j, const char* key, const std::string& where, int nranks,
                                    std::size_t samples) {
  const json& list = per_rank_list(j, key, where, nranks);
  std::vector<std::int64_t> out;
  for (std::size_t r = 0; r < list.size(); ++r)
    out.push_back(integer_in(list[r], member_path(where, key) + "[" + std::to_string(r) + "]", 0,
                             static_cast<std::int64_t>(samples)));
  return out;
}

std::vector<double> lags_at(const json& j, const char* key, const std::string& where, int nranks) {
  const json& list = per_rank_list(j, key, where, nranks);
  std::vector<double> out;
  for (std::size_t r = 0; r < list.size(); ++r)
    out.push_back(
        number_in(list[r], member_path(where, key) + "[" + std::to_string(r) + "]", 0, kMaxPlausibleTimeUs));
  return out;
}

// Every sample has one last arrival; a rank's tail iterations are some of its last arrivals, and
// their lags lie above the tail's start (0 where it has none).
void check_consistent(const ArrivalTally& t, const std::string& where, std::size_t samples) {
  if (t.iterations() != static_cast<std::int64_t>(samples))
    throw InputError(member_path(where, "last") + ": " + std::to_string(t.iterations()) +
                     " last arrivals for " + std::to_string(samples) + " samples (one per sample)");
  for (std::size_t r = 0; r < t.last.size(); ++r) {
    const std::string at = "[" + std::to_string(r) + "]";
    if (t.tail_last[r] > t.last[r])
      throw InputError(member_path(where, "tail_last") + at +
                       ": more tail iterations than the rank's last arrivals");
    const double lag = t.tail_median_lag_us[r];
    const bool fits = t.tail_last[r] == 0 ? lag == 0 : lag >= t.tail_lag_us * (1 - kWriterRoundingSlack);
    if (!fits)
      throw InputError(
          member_path(where, "tail_median_lag_us") + at +
          (t.tail_last[r] == 0 ? ": must be 0 for a rank with no tail iteration" : ": below tail_lag_us"));
  }
}

}  // namespace

json to_json(const ArrivalTally& t) {
  return json{{"tail_lag_us", t.tail_lag_us},
              {"last", t.last},
              {"tail_last", t.tail_last},
              {"tail_median_lag_us", t.tail_median_lag_us}};
}

ArrivalTally arrivals_from_json(const json& j, const std::string& where, int nranks, std::size_t samples) {
  if (!j.is_object()) bad_value(where, "an object", j);
  if (nranks < 2)
    throw InputError(where + ": a case of " + std::to_string(nranks) + " rank has no last arrival");
  ArrivalTally t;
  t.tail_lag_us = number_in(required_field(j, "tail_lag_us", where), member_path(where, "tail_lag_us"), 0,
                            kMaxPlausibleTimeUs);
  t.last = counts_at(j, "last", where, nranks, samples);
  t.tail_last = counts_at(j, "tail_last", where, nranks, samples);
  t.tail_median_lag_us = lags_at(j, "tail_median_lag_us", where, nranks);
  check_consistent(t, where, samples);
  return t;
}

}  // namespace commtune
