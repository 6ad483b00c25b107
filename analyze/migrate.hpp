// The migration of backend code that lives outside the backend folders (the predecessor's ops/<backend>/)
// into backends/<backend>/<category>_ops.cpp: the plan (what moves where, with which helpers and includes,
// and which frontend calls become dispatches) and its all-or-nothing application.
//
// What moves: every C++ file outside the backend layers whose project-relative path has a folder named after
// a backend (src/ops/eigen/math.cpp belongs to "eigen"). Each external function defined there moves to the
// file of its op's category; the file's internal helpers (static or anonymous-namespace functions, aliases,
// types, variables) move with the functions that reference them; its headers move unchanged into the backend
// folder. The include directives a moved definition needs are those through which the declarations it
// references were first reached, those naming a referenced declaration's own header, and the standard headers
// of its source. Each frontend call of a moved function becomes
// `<root>::dispatch::call<Signature>("op(params)", "backend", args...)`, served by a registry (created once
// in the frontend) that each moved file fills.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "analyze/migration_plan.hpp"
#include "analyze/ops_config.hpp"
#include "lint/compile/compile_db.hpp"
#include "lint/project/config.hpp"

namespace emberlint::analyze {

// The plan cannot be made or applied: nothing was changed, unless the message says how to complete it.
struct MigrationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct MigrateInput {
  const Config* config = nullptr;
  const OpsConfig* ops = nullptr;
  const Inventory* inventory = nullptr;
  std::vector<CompileCommand> commands;  // every source of the frontend and backend layers
  std::string resource_dir;
  std::string backend;  // NAME or "all"
};

struct Migration {
  std::filesystem::path root;  // the project root: where apply_migration keeps its journal
  MigrationPlan plan;
  // The whole change: each file's new content, or nullopt to delete it; then the folders that become empty.
  std::map<std::filesystem::path, std::optional<std::string>> files;
  std::vector<std::filesystem::path> folders_to_remove;
};

// Throws MigrationError (a conflict, a call site it cannot rewrite) or UsageError (unknown backend).
Migration plan_migration(const MigrateInput& input);

// All or nothing, even when the process is killed (analyze/README.md, "Applying"): a journal at the root
// (.emberlint-migration.json) lists the steps; every file is written to a temporary beside its target
// (".<name>.emberlint-migrating", with the target's permissions) and synced; the journal is then marked
// committed, and only then are the temporaries renamed into place, the files deleted, the emptied folders
// removed and the journal removed. An error before the commit undoes everything (MigrationError "... nothing
// was changed"); an error after it leaves the journal and says how to complete the migration.
void apply_migration(const Migration& migration);

// Finds the journal of an apply that was interrupted under `root` and finishes it (committed) or undoes it
// (not yet committed); also removes the temporaries of a journal write that was killed. Returns what it did,
// or empty when there was no journal. Throws MigrationError when the journal cannot be read or finished.
std::string recover_migration(const std::filesystem::path& root);

}  // namespace emberlint::analyze
