#include "exports/export_writer.hpp"

#include <nlohmann/json.hpp>

namespace commtune {

using nlohmann::json;

namespace {

json rows_json(const ExportPlan& plan) {
  json rows = json::array();
  for (const auto& r : plan.tuner_rows)
    rows.push_back({{"collective", r.collective},
                    {"min_bytes", r.min_bytes},
                    {"max_bytes", r.max_bytes},
                    {"algorithm", r.algorithm},
                    {"protocol", r.protocol},
                    {"channels", r.channels},
                    {"nNodes", r.nnodes},
                    {"nRanks", r.nranks}});
  return rows;
}

json rule_list(const std::vector<OmpiRule>& list) {
  json items = json::array();
  for (const auto& r : list)
    items.push_back({{"min_bytes", r.min_bytes},
                     {"algorithm", r.algorithm},
                     {"fanout", r.fanout},
                     {"segment_size", r.segment_size}});
  return items;
}

json group_sections_json(const ExportPlan& plan) {
  json out = json::array();
  for (const OmpiSection& s : plan.ompi_group_rules)
    out.push_back({{"collective", name_of(s.collective)},
                   {"comm_size", s.comm_size},
                   {"group", s.spec},
                   {"rules", rule_list(s.rules)}});
  return out;
}

json rules_json(const ExportPlan& plan) {
  json rules = json::object();
  for (const auto& [c, list] : plan.ompi_rules) rules[std::string(name_of(c))] = rule_list(list);
  return rules;
}

}  // namespace

void ExportJsonWriter::write(const ExportPlan& plan, std::ostream& out) const {
  json env = json::object(), order = json::array();
  for (const auto& e : plan.env) {
    env[e.name] = e.value;
    order.push_back(e.name);
  }
  json doc{{"kind", "commtune-export"},
           {"backend", name_of(plan.backend)},
           {"nranks", plan.nranks},
           {"nnodes", plan.nnodes},
           {"env", env},
           {"env_order", order},
           {"nccl_tuner", rows_json(plan)},
           {"ompi_rules", rules_json(plan)},
           {"summary", plan.summary},
           {"notes", plan.notes},
           {"warnings", plan.warnings}};
  if (!plan.ompi_group_rules.empty()) doc["ompi_group_rules"] = group_sections_json(plan);
  out << doc.dump(2) << "\n";
}

}  // namespace commtune
