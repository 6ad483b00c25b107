// The registry of inventory models: one line per model.
#include "analyze/model.hpp"

namespace emberlint::analyze {

std::unique_ptr<InventoryModel> make_enum_dispatch_model();
std::unique_ptr<InventoryModel> make_op_classes_methods_model();
std::unique_ptr<InventoryModel> make_op_classes_subclasses_model();
std::unique_ptr<InventoryModel> make_registrations_model();

const std::vector<ModelInfo>& inventory_models() {
  static const std::vector<ModelInfo> models = {
      {"interface_class", "class", {"class", "implementations"}, 1, nullptr},
      {"functions",
       "functions",
       {"namespace", "implementations", "op_names", "implementation_names", "migration", "ops"},
       1,
       nullptr},
      {"enum_dispatch",
       "",
       {"enum", "dispatch", "supports", "stub_calls", "exclude"},
       2,
       &make_enum_dispatch_model},
      {"op_classes_methods",
       "",
       {"base", "methods", "exclude", "fallback_methods"},
       2,
       &make_op_classes_methods_model},
      {"op_classes_subclasses",
       "",
       {"base", "methods", "exclude", "fallback_methods"},
       2,
       &make_op_classes_subclasses_model},
      {"registrations", "", {"registrations", "enum", "ops", "exclude"}, 1, &make_registrations_model},
  };
  return models;
}

const ModelInfo* find_model(std::string_view name) {
  for (const auto& m : inventory_models()) {
    if (m.name == name || (!m.shape_alias.empty() && m.shape_alias == name)) return &m;
  }
  return nullptr;
}

}  // namespace emberlint::analyze
