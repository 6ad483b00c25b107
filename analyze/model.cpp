#include "analyze/model.hpp"

#include <algorithm>

#include "analyze/cursor.hpp"

namespace emberlint::analyze {

namespace fs = std::filesystem;

namespace {
bool any_matches(const std::vector<Glob>& globs, const fs::path& p) {
  return std::any_of(globs.begin(), globs.end(), [&](const Glob& g) { return g.matches_path(p); });
}
}  // namespace

std::vector<std::string> ModelContext::backends_of(const fs::path& file) const {
  std::vector<std::string> out;
  if (file.empty() || any_matches(config->glue, file)) return out;
  for (const auto& b : config->backends) {
    if (any_matches(b.globs, file)) out.push_back(b.name);
  }
  return out;
}

bool ModelContext::declares_ops(const fs::path& file) const {
  if (file.empty()) return false;
  const auto& globs = ops->headers.empty() ? config->frontend : ops->headers;
  return any_matches(globs, file);
}

bool ModelContext::in_project(const fs::path& file) const {
  return !file.empty() && !relative_to(file, config->root).empty() && !config->excluded(file);
}

bool ModelContext::excluded_op(const std::string& name) const {
  return std::any_of(ops->exclude.begin(), ops->exclude.end(),
                     [&](const Glob& g) { return g.matches_name(name); });
}

std::string ModelContext::where(const Place& place) const {
  std::string rel = relative_to(place.file, config->root);
  return (rel.empty() ? place.file.string() : rel) + ":" + std::to_string(place.line);
}

std::string ModelContext::unparsed_backend(const std::string& backend) const {
  if (!commands) return "";
  auto mine = [&](const fs::path& file) {
    const auto owners = backends_of(file);
    return std::find(owners.begin(), owners.end(), backend) != owners.end();
  };
  // A source of its own in the database: one that folders of other backends list too (a plugin's common/
  // folder the GPU backends share) is compiled for those, and says nothing of this one.
  for (const CompileCommand& c : *commands) {
    if (!is_header_path(c.file) && mine(c.file) && backends_of(c.file).size() == 1) return "";
  }
  // The sources the run leaves out are those outside the compile database (analyze.cpp's commands_for).
  std::vector<std::string> left;
  if (unparsed) {
    for (const auto& [file, why] : *unparsed) {
      if (!mine(file)) continue;
      const std::string rel = relative_to(file, config->root);
      left.push_back(rel.empty() ? file.string() : rel);
    }
  }
  if (left.empty()) return "its folders (layers.backends." + backend + ") hold no C or C++ source";
  std::sort(left.begin(), left.end());
  std::string names;
  for (std::size_t i = 0; i < left.size() && i < 3; ++i) names += (i ? ", " : "") + left[i];
  if (left.size() > 3) names += ", ...";
  return (left.size() == 1 ? std::string("its only source is not")
                           : "none of its " + std::to_string(left.size()) + " sources is") +
         " in the compile database (" + names +
         "): configure the build with the backend, or state its own in "
         "layers.backends." +
         backend + ".compile_database";
}

void add_enumerator_ops(const ModelContext& context, const std::vector<Enumerator>& enumerators,
                        const Place& declared, Inventory& inv) {
  const std::string& name = context.ops->enum_name;
  for (const auto& e : enumerators) {
    if (context.excluded_op(e.name)) continue;
    Op op;
    op.id = op.name = e.name;
    op.category = category_of(declared.file);
    op.declared = e.declared;
    op.declaration = "enumerator " + e.name + " = " + std::to_string(e.value) + " of " + name;
    inv.ops.push_back(std::move(op));
  }
  if (inv.ops.empty()) context.ops->fail("exclude", "excludes every enumerator of '" + name + "'");
}

}  // namespace emberlint::analyze
