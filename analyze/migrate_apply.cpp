// Applying a migration all or nothing through a journal, and recovering one that was interrupted
// (analyze/migrate.hpp says how).
#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "analyze/migrate.hpp"
#include "lint/support/fault_injection.hpp"
#include "lint/findings/fixes.hpp"

namespace emberlint::analyze {

namespace fs = std::filesystem;

namespace {

constexpr const char* kJournalName = ".emberlint-migration.json";
constexpr const char* kTemporarySuffix = ".emberlint-migrating";

// What an apply does, relative to the project root: written before the first temporary ("prepared": undo
// it), then again once every temporary is written and synced ("committed": finish it).
struct Journal {
  bool committed = false;
  std::vector<std::pair<fs::path, fs::path>> replace;  // temporary -> target
  std::vector<fs::path> created_folders;               // made for temporaries, outermost first
  std::vector<fs::path> deleted;                       // files
  std::vector<fs::path> removed_folders;               // emptied folders, removed with what is left in them
};

fs::path temporary_of(const fs::path& target) {
  std::string name = ".";
  name += target.filename().string();
  name += kTemporarySuffix;
  return target.parent_path() / name;
}

fs::path relative_to(const fs::path& p, const fs::path& root) {
  fs::path rel = p.lexically_relative(root);
  return rel.empty() || *rel.begin() == ".." ? p : rel;
}

std::string journal_text(const Journal& j) {
  auto paths = [](const std::vector<fs::path>& ps) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& p : ps) out.push_back(p.generic_string());
    return out;
  };
  nlohmann::json replace = nlohmann::json::array();
  for (const auto& [tmp, target] : j.replace)
    replace.push_back({tmp.generic_string(), target.generic_string()});
  nlohmann::json doc = {{"tool", "emberlint"},
                        {"journal", "migration"},
                        {"state", j.committed ? "committed" : "prepared"},
                        {"replace", replace},
                        {"created_folders", paths(j.created_folders)},
                        {"delete", paths(j.deleted)},
                        {"remove_folders", paths(j.removed_folders)}};
  return doc.dump(2) + "\n";
}

Journal read_journal(const fs::path& file) {
  const std::string how = "; restore the tree from version control, then delete the journal";
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw MigrationError(file.string() + ": cannot read the journal of an interrupted migration" + how);
  Journal j;
  try {
    const nlohmann::json doc = nlohmann::json::parse(in);
    if (doc.at("journal") != "migration") throw std::runtime_error("not a migration journal");
    j.committed = doc.at("state") == "committed";
    for (const auto& r : doc.at("replace"))
      j.replace.emplace_back(r.at(0).get<std::string>(), r.at(1).get<std::string>());
    for (const auto& p : doc.at("created_folders")) j.created_folders.emplace_back(p.get<std::string>());
    for (const auto& p : doc.at("delete")) j.deleted.emplace_back(p.get<std::string>());
    for (const auto& p : doc.at("remove_folders")) j.removed_folders.emplace_back(p.get<std::string>());
  } catch (const std::exception& e) {
    throw MigrationError(file.string() + ": not a valid migration journal (" + e.what() + ")" + how);
  }
  return j;
}

void write_journal(const fs::path& root, const Journal& j) {
  if (std::string error = write_file_atomically(root / kJournalName, journal_text(j)); !error.empty())
    throw MigrationError("cannot write the migration journal: " + error);
}

// Makes the folder's entries (created, renamed, removed) durable.
void sync_folder(const fs::path& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// A prepared journal: removes the temporaries (and what a killed writer left of them), the folders made for
// them and the journal. The tree is as before the apply.
void undo_prepared(const fs::path& root, const Journal& j) {
  std::error_code ec;
  std::set<fs::path> folders;
  for (const auto& [tmp, target] : j.replace) {
    fs::remove(root / tmp, ec);
    folders.insert((root / tmp).parent_path());
  }
  for (const auto& folder : folders) remove_abandoned_temporaries(folder);
  for (auto it = j.created_folders.rbegin(); it != j.created_folders.rend(); ++it) fs::remove(root / *it, ec);
  fs::remove(root / kJournalName, ec);
  sync_folder(root);
}

// A committed journal: renames each temporary still there into place, deletes, removes the folders, then the
// journal. Each step can be done again, so an interrupted finish is finished by the next one.
void finish_committed(const fs::path& root, const Journal& j) {
  std::set<fs::path> folders{root};
  for (const auto& [tmp, target] : j.replace) {
    std::error_code ec;
    if (fs::exists(root / tmp, ec)) {
      fs::rename(root / tmp, root / target, ec);
      if (ec)
        throw MigrationError("cannot move " + (root / tmp).string() + " to " + target.string() + ": " +
                             ec.message());
      file_write_step();
    } else if (!fs::exists(root / target, ec)) {
      throw MigrationError((root / target).string() + " and its temporary are both missing");
    }
    folders.insert((root / target).parent_path());
  }
  for (const auto& f : j.deleted) {
    std::error_code ec;
    if (fs::remove(root / f, ec)) file_write_step();
    if (ec) throw MigrationError("cannot delete " + (root / f).string() + ": " + ec.message());
    folders.insert((root / f).parent_path());
  }
  for (const auto& d : j.removed_folders) {
    std::error_code ec;
    if (fs::remove_all(root / d, ec) > 0) file_write_step();
    if (ec) throw MigrationError("cannot remove " + (root / d).string() + ": " + ec.message());
    folders.insert((root / d).parent_path());
  }
  for (const auto& folder : folders) sync_folder(folder);
  std::error_code ec;
  fs::remove(root / kJournalName, ec);
  if (ec)
    throw MigrationError("cannot remove the journal " + (root / kJournalName).string() + ": " + ec.message());
  file_write_step();
  sync_folder(root);
}

std::string committed_failure(const fs::path& root, const std::string& why) {
  return "the migration stopped after it was committed: " + why + ". The journal " +
         (root / kJournalName).string() +
         " lists what is left: fix the cause, then run `emberlint analyze` in " + root.string() +
         " to complete it";
}

// The journal of a migration: each target's temporary, the folders the temporaries need, the deletions.
Journal journal_of(const Migration& m) {
  Journal j;
  std::set<fs::path> planned;
  for (const auto& [target, content] : m.files) {
    std::error_code ec;
    if (!content) {
      j.deleted.push_back(relative_to(target, m.root));
      continue;
    }
    if (fs::exists(target, ec) && !fs::is_regular_file(target, ec))
      throw MigrationError(target.string() + " is not a regular file; nothing was changed");
    std::vector<fs::path> missing;
    fs::path p = target.parent_path();
    for (; !p.empty() && p != p.root_path() && !fs::exists(p, ec); p = p.parent_path()) missing.push_back(p);
    if (!fs::is_directory(p, ec))
      throw MigrationError("cannot write " + target.string() + ": " + p.string() +
                           " is not a folder; nothing was changed");
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
      if (planned.insert(*it).second) j.created_folders.push_back(relative_to(*it, m.root));
    }
    j.replace.emplace_back(relative_to(temporary_of(target), m.root), relative_to(target, m.root));
  }
  for (const auto& folder : m.folders_to_remove) j.removed_folders.push_back(relative_to(folder, m.root));
  return j;
}

}  // namespace

void apply_migration(const Migration& migration) {
  const fs::path& root = migration.root;
  std::error_code ec;
  if (fs::exists(root / kJournalName, ec))
    throw MigrationError((root / kJournalName).string() +
                         ": an interrupted migration; run `emberlint analyze` to complete it first");
  Journal j = journal_of(migration);
  // 1. The journal, prepared; then the folders and every new content in a temporary beside its target, with
  //    the target's permissions. Any error: undone.
  try {
    write_journal(root, j);
    for (const auto& folder : j.created_folders) {
      if (!fs::create_directory(root / folder, ec) && ec)
        throw MigrationError("cannot create " + (root / folder).string() + ": " + ec.message());
      file_write_step();
    }
    std::set<fs::path> folders;
    for (const auto& [tmp, target] : j.replace) {
      if (std::string error = write_file_atomically(root / tmp, *migration.files.at(root / target));
          !error.empty())
        throw MigrationError("cannot write " + (root / target).string() + ": " + error);
      if (fs::exists(root / target, ec))
        fs::permissions(root / tmp, fs::status(root / target, ec).permissions(), ec);
      if (ec)
        throw MigrationError("cannot copy the permissions of " + (root / target).string() + ": " +
                             ec.message());
      folders.insert((root / tmp).parent_path());
    }
    for (const auto& folder : folders) sync_folder(folder);
    // 2. Committed: from here on the migration is finished, now or by the next run.
    j.committed = true;
    write_journal(root, j);
  } catch (const MigrationError& e) {
    undo_prepared(root, j);
    throw MigrationError(std::string(e.what()) + "; nothing was changed");
  }
  // 3. The temporaries into place, the deletions, the journal removed.
  try {
    finish_committed(root, j);
  } catch (const MigrationError& e) {
    throw MigrationError(committed_failure(root, e.what()));
  }
}

std::string recover_migration(const fs::path& root) {
  remove_abandoned_temporaries(root);  // of a journal whose write was interrupted
  const fs::path file = root / kJournalName;
  std::error_code ec;
  if (!fs::exists(file, ec)) return {};
  const Journal j = read_journal(file);
  if (!j.committed) {
    undo_prepared(root, j);
    return "undid an interrupted migration that had not been committed (" + file.string() +
           "): the tree is as it was before it";
  }
  try {
    finish_committed(root, j);
  } catch (const MigrationError& e) {
    throw MigrationError(committed_failure(root, e.what()));
  }
  return "completed an interrupted migration from its journal " + file.string();
}

}  // namespace emberlint::analyze
