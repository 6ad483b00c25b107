// What one translation unit says about the ops and their implementations, before merging, and the two steps
// of analyze/extract.cpp that make and use it: extract_unit.cpp parses units and walks them (the class and
// functions shapes, or a registered model's walk), extract_merge.cpp merges the units' findings into the
// inventory's cells. Internal to analyze/extract*.cpp.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyze/cursor.hpp"
#include "analyze/extract.hpp"
#include "analyze/model.hpp"

namespace emberlint::analyze {

struct RawOp {
  std::string usr, name, category;
  Signature signature;
  Place declared;
};

using RawBody = Body;

// A public method of a backend class, or an external function of a backend (functions shape).
struct RawImpl {
  std::string backend, usr, name, owner;  // name: the op's name (functions: the {op} of the function's name)
  Signature signature;                    // the declaration's (with its defaults)
  Place declared;
  std::vector<std::string> overrides;  // class shape: USRs of the overridden methods
  bool marker = false;
  std::string spelled;  // the function's own name, when it differs from `name`
  // Class shape: the base outside the backend's folders whose implementation the backend's class inherits
  // (a frontend's reference implementation), empty for the class's own methods.
  std::string inherited_from;
  const std::string& function() const { return spelled.empty() ? name : spelled; }
};

struct RawBackendClass {
  std::string backend, name;
  Place declared;
};

struct TuResult {
  std::vector<RawOp> ops;
  std::vector<RawImpl> impls;
  std::vector<RawBody> bodies;
  std::vector<RawBackendClass> classes;
  std::set<std::string> interface_methods;  // class shape: every method of the interface and its bases
  // Definitions whose bodies were skipped because they live in a preamble header: USR and header.
  std::vector<std::pair<std::string, std::filesystem::path>> skipped;
  std::optional<Failure> failure;
  std::vector<Dependency> dependencies;  // with a cache: what the parse read
  bool opened = true;                    // false: the file could not even be read
  // The text of the regions a disabled #if removed from the backend files of the unit, by file: where an
  // op's definition may be, under other flags.
  std::map<std::filesystem::path, std::string> disabled;
  std::unique_ptr<UnitFacts> model;  // what a registered model found (its units are walked even with errors)
  std::set<std::filesystem::path> included;  // the headers the unit read (not the main file)
  bool prefixed = false;                     // parsed with a shared prefix (lint/run/shared_prefixes.hpp)
};

// Parses every command (on input.jobs threads) and walks each unit: with `model`, the model's own walk; else
// the class or functions shape's.
// `prefixes_built`, when given, counts the shared prefixes the parses loaded.
std::vector<TuResult> parse_all(const ExtractInput& input, const std::vector<CompileCommand>& commands,
                                const InventoryModel* model = nullptr, std::size_t* prefixes_built = nullptr);

// The inventory of the class and functions shapes: the units' ops, implementations and bodies merged, each
// cell classified (native, fallback, stub, missing).
Inventory merge_units(const ExtractInput& input, std::vector<TuResult>& results);

}  // namespace emberlint::analyze
