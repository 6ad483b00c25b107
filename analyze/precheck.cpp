#include "analyze/precheck.hpp"

#include <mutex>
#include <set>

#include "analyze/cursor.hpp"
#include "analyze/name_pattern.hpp"
#include "lint/parse/parse.hpp"
#include "lint/run/scheduler.hpp"

namespace emberlint::analyze {

namespace {

struct Declared {
  std::set<std::string> enums, classes;  // qualified names of definitions in the project's files
  bool clean = true;                     // every header parsed without an error
};

void collect(CXCursor parent, Places& places, Declared& out) {
  visit(parent, [&](CXCursor c) {
    const CXCursorKind k = clang::kind(c);
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec) return CXChildVisit_Recurse;
    if (places.file(c).empty() || !clang::is_definition(c)) return CXChildVisit_Continue;
    if (k == CXCursor_EnumDecl) out.enums.insert(qualified_name(c));
    if (k == CXCursor_ClassDecl || k == CXCursor_StructDecl || k == CXCursor_ClassTemplate) {
      out.classes.insert(qualified_name(c));
      return CXChildVisit_Recurse;  // nested enums and classes
    }
    return CXChildVisit_Continue;
  });
}

std::string last_part(const std::string& name) {
  const std::size_t at = name.rfind("::");
  return at == std::string::npos ? name : name.substr(at + 2);
}

// A name the user may have meant: the same name in another scope, or a spelling two edits away.
bool near(const std::string& wanted, const std::set<std::string>& names) {
  for (const auto& n : names) {
    if (last_part(n) == last_part(wanted) || edit_distance(n, wanted) <= 2) return true;
  }
  return false;
}

}  // namespace

void check_declared_names(const Config& config, const OpsConfig& ops,
                          const std::vector<CompileCommand>& headers, const std::string& resource_dir,
                          unsigned jobs) {
  struct Check {
    const char* key;
    const char* what;
    std::string name;
    std::set<std::string> Declared::*names;
  };
  std::vector<Check> checks;
  if (!ops.enum_name.empty()) checks.push_back({"enum", "enum", ops.enum_name, &Declared::enums});
  if (!ops.base_class.empty()) checks.push_back({"base", "class", ops.base_class, &Declared::classes});
  if (checks.empty() || headers.empty()) return;
  Declared declared;
  std::mutex mutex;
  for_each_unit(headers.size(), jobs, [&](const clang::Index& index, std::size_t i) {
    UnitParse how;
    how.prefix_header = true;  // declarations only: every function body skipped
    how.preprocessing_record = false;
    ParsedUnit parsed = parse_unit(index, headers[i], resource_dir, how);
    Declared mine;
    if (!parsed) {
      mine.clean = false;
    } else {
      ParseResult errors;
      mine.clean = !collect_parse_errors(parsed.tu.get(), headers[i].directory, errors);
      Places places;
      collect(clang::root(parsed.tu.get()), places, mine);
    }
    std::lock_guard lock(mutex);
    declared.enums.insert(mine.enums.begin(), mine.enums.end());
    declared.classes.insert(mine.classes.begin(), mine.classes.end());
    declared.clean = declared.clean && mine.clean;
  });
  std::string list;
  for (std::size_t i = 0; i < headers.size() && i < 3; ++i) {
    std::string rel = relative_to(headers[i].file, config.root);
    list += (i ? ", " : "") + (rel.empty() ? headers[i].file.string() : rel);
  }
  if (headers.size() > 3) list += ", ...";
  for (const Check& c : checks) {
    const std::set<std::string>& names = declared.*c.names;
    if (names.count(c.name) || !(declared.clean || near(c.name, names))) continue;
    ops.fail(c.key, std::string("no ") + c.what + " '" + c.name +
                        "' is declared in the headers that declare the ops (" + list + "); nearest: " +
                        nearest_names(c.name, names) + " (checked before parsing the backends)");
  }
}

}  // namespace emberlint::analyze
