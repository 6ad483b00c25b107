// A migration plan as plain values: what `emberlint analyze --migrate` moves where. The planner
// (analyze/migrate.cpp) fills it; every analyze renderer prints it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "analyze/inventory.hpp"

namespace emberlint::analyze {

struct Move {
  std::string function;   // qualified name ("legacy::eigen::add")
  std::string signature;  // as written
  std::string backend;
  std::string category;
  Place source;                       // the definition outside the backend folders
  std::filesystem::path target;       // backends/<backend>/<category>_ops.cpp (absolute)
  std::vector<std::string> helpers;   // private helpers that move with it (qualified names)
  std::vector<std::string> includes;  // include directives it needs in the target ("<Eigen/Dense>")
  std::string op;                     // the frontend op it implements ("add"), empty when none
  std::string dispatch;               // the frontend statement that replaces the direct call
  std::vector<Place> call_sites;      // frontend places that call it directly today
};

struct MigrationPlan {
  std::string backend;  // NAME or "all"
  bool applied = false;
  std::vector<Move> moves;                     // by backend, source file, line
  std::vector<std::filesystem::path> created;  // files the apply creates
  std::vector<std::filesystem::path> changed;  // files it rewrites
  std::vector<std::filesystem::path> removed;  // files and folders it deletes
};

}  // namespace emberlint::analyze
