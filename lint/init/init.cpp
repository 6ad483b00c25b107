#include "lint/init/init.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "lint/init/configurations.hpp"
#include "lint/init/discover.hpp"
#include "lint/init/unbuilt.hpp"
#include "lint/parse/include_graph.hpp"
#include "lint/support/glob.hpp"

namespace emberlint {

namespace fs = std::filesystem;

namespace {

std::string quoted_list(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + ("\"" + i + "\"");
  return out;
}

// A comment of one or more lines, each at most about 110 columns, at `indent`.
void comment(std::ostringstream& o, const std::string& indent, const std::string& text) {
  if (text.empty()) return;
  std::istringstream words(text);
  std::string word, line;
  while (words >> word) {
    if (!line.empty() && indent.size() + 3 + line.size() + 1 + word.size() > 112) {
      o << indent << "// " << line << "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) o << indent << "// " << line << "\n";
}

// The C++ standard the project builds with: the compile database's most common -std, else the one its
// CMakeLists.txt sets (CMAKE_CXX_STANDARD 17, cxx_std_17), else C++20; "" when the database passes none (the
// compiler's default applies to every unit). The why goes to `why`.
std::string project_std(const fs::path& root, const std::vector<CompileCommand>& commands, std::string& why) {
  std::map<std::string, std::size_t> stds;
  for (const auto& c : commands) {
    for (const auto& a : c.arguments) {
      if (a.rfind("-std=", 0) == 0 && a.find("++") != std::string::npos) ++stds[a];
    }
  }
  if (!stds.empty()) {
    const auto top = std::max_element(stds.begin(), stds.end(),
                                      [](const auto& a, const auto& b) { return a.second < b.second; });
    why = top->first + " as " + std::to_string(top->second) + " of the database's commands";
    return top->first;
  }
  if (!commands.empty()) {
    // The compiler's own default applies to every unit; a proposed -std would only differ from it.
    why = "the database's commands pass no -std (the compiler's default): none proposed";
    return {};
  }
  std::ifstream in(root / "CMakeLists.txt");
  std::ostringstream text;
  text << in.rdbuf();
  const std::string cmake = text.str();
  for (const std::string key : {"CMAKE_CXX_STANDARD", "cxx_std_"}) {
    for (auto at = cmake.find(key); at != std::string::npos; at = cmake.find(key, at + 1)) {
      std::size_t k = at + key.size();
      while (k < cmake.size() && (cmake[k] == ' ' || cmake[k] == '\t')) ++k;
      std::size_t end = k;
      while (end < cmake.size() && std::isdigit(static_cast<unsigned char>(cmake[end]))) ++end;
      if (end == k || end - k > 2) continue;
      why = "CMakeLists.txt: " + key + (key == "cxx_std_" ? "" : " ") + cmake.substr(k, end - k);
      return "-std=c++" + cmake.substr(k, end - k);
    }
  }
  why = "no compile database and no standard in CMakeLists.txt: C++20 assumed";
  return "-std=c++20";
}

// With a database, the include folders under the root that at least half of its units pass (-I, relative to
// the root, "." for it); none of them alone makes each backend's own headers resolve against another's.
std::vector<std::string> database_include_folders(const fs::path& root,
                                                  const std::vector<CompileCommand>& commands) {
  std::map<std::string, std::size_t> used;
  std::size_t units = 0;
  for (const auto& c : commands) {
    if (c.file.lexically_relative(root).empty() || *c.file.lexically_relative(root).begin() == "..") continue;
    ++units;
    std::set<std::string> mine;
    for (const auto& f : include_paths(c).angle) {
      const fs::path rel = f.lexically_normal().lexically_relative(root);
      if (rel.empty() || *rel.begin() == "..") continue;
      std::string r = rel.generic_string();
      if (!r.empty() && r.back() == '/') r.pop_back();
      mine.insert(r.empty() ? "." : r);
    }
    for (const auto& m : mine) ++used[m];
  }
  std::vector<std::string> out;
  for (const auto& [folder, n] : used) {
    if (2 * n >= units) out.push_back(folder);
  }
  return out;
}

// The parse errors the proposed config's first `check` meets here (lint/init/unbuilt.hpp): the database's
// units, or without one the sources a walk of the tree lints with the proposed compile_flags.
std::vector<ExpectedErrors> unbuilt_errors(const fs::path& root, const std::vector<CompileCommand>& commands,
                                           const Discovery& d, const std::vector<std::string>& flags) {
  std::vector<Glob> excludes;
  for (const auto& e : d.exclude) excludes.emplace_back(e);
  UnbuiltScan scan;
  scan.root = root;
  scan.commands = commands;
  scan.fallback_flags = flags;
  scan.excluded = [&](const std::string& rel) {
    return std::any_of(excludes.begin(), excludes.end(),
                       [&](const Glob& g) { return g.matches_relative(rel); });
  };
  if (commands.empty()) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      const std::string rel = it->path().lexically_relative(root).generic_string();
      if (it->is_directory(ec)) {
        if (it->path().filename().string().rfind('.', 0) == 0 || scan.excluded(rel + "/x"))
          it.disable_recursion_pending();
      } else if (is_source_path(it->path())) {
        scan.sources.push_back(rel);
      }
    }
    std::sort(scan.sources.begin(), scan.sources.end());
  }
  return expected_unbuilt_errors(scan);
}

}  // namespace

std::string starter_config(const fs::path& root, const std::vector<CompileCommand>& commands,
                           std::size_t entries) {
  Discovery d = discover(root, commands);
  // The database as its entries count, and what a parse sees of them: an entry that repeats another's file
  // and parse flags (the same source in a static and a shared library target) is parsed once.
  entries = std::max(entries, commands.size());
  if (entries)
    d.read += ", " + std::to_string(entries) + (entries == 1 ? " compile command" : " compile commands");
  if (entries > commands.size())
    d.read += " (" + std::to_string(commands.size()) +
              " distinct: " + std::to_string(entries - commands.size()) +
              " repeat another's file and parse flags)";
  // A backend chosen at compile time: its configurations, and the folder every backend compiles as shared.
  const ConfigurationProposal configurations = propose_configurations(root, commands, d);
  apply_proposal(configurations, d);
  std::ostringstream o;
  o << "// emberlint configuration (JSON with comments), written by `emberlint init` from " << d.read
    << ".\n// Paths and globs are relative to this file. Each proposal says its evidence; edit what does not "
       "fit.\n"
    << "// `emberlint layers` shows where each file lands, `emberlint rules` lists the rules.\n{\n";
  o << "  \"layers\": {\n";
  comment(o, "    ",
          d.frontend.empty() ? "no library code found outside the backend folders: name the frontend"
                             : "frontend: " + d.frontend_why);
  o << "    \"frontend\": [" << quoted_list(d.frontend) << "],\n";
  if (d.backends.empty())
    comment(o, "    ",
            "no backend folders found (sibling folders named after a library, an architecture or cpu/gpu, or "
            "the children of a backend/ folder): name each backend's folders, or the purity rules enforce "
            "nothing");
  o << "    \"backends\": {";
  for (std::size_t i = 0; i < d.backends.size(); ++i) {
    const ProposedBackend& b = d.backends[i];
    o << (i ? "," : "") << "\n";
    const auto interop = configurations.interop.find(b.name);
    std::string why = b.why;
    if (auto w = configurations.interop_why.find(b.name); w != configurations.interop_why.end()) {
      why += "; interop (its own code, every layer's to include): ";
      for (std::size_t k = 0; k < w->second.size(); ++k) why += (k ? "; " : "") + w->second[k];
    }
    if (!b.uses.empty()) why += "; " + b.uses_why;
    comment(o, "      ", why);
    if (b.public_headers.empty() && b.tests.empty() && b.uses.empty() &&
        interop == configurations.interop.end()) {
      o << "      \"" << b.name << "\": [" << quoted_list(b.paths) << "]";
    } else {
      o << "      \"" << b.name << "\": {\"paths\": [" << quoted_list(b.paths) << "]";
      if (!b.public_headers.empty()) o << ", \"public\": [" << quoted_list(b.public_headers) << "]";
      // Its headers for users that include its library: its own API, in its layer.
      if (interop != configurations.interop.end())
        o << ", \"interop\": [" << quoted_list(interop->second) << "]";
      if (!b.uses.empty()) o << ", \"uses\": [" << quoted_list(b.uses) << "]";
      if (!b.tests.empty()) o << ", \"tests\": [" << quoted_list(b.tests) << "]";
      o << "}";
    }
  }
  o << (d.backends.empty() ? "},\n" : "\n    },\n");
  if (!configurations.shared.empty()) {
    comment(o, "    ", "shared, compiled into every backend: " + configurations.shared_why);
    o << "    \"shared\": [" << quoted_list(configurations.shared) << "],\n";
  }
  comment(o, "    ", d.tests_why);
  o << "    \"tests\": [" << quoted_list(d.tests) << "],\n";
  comment(o, "    ", d.glue_why);
  o << "    \"glue\": [" << quoted_list(d.glue) << "]\n  },\n";

  o << "  // Libraries: the headers (as #include spells them), namespaces and symbol globs of each vendor "
       "library,\n"
    << "  // and the backend(s) that may use it; anywhere else, a use is a finding (EL100, EL101, EL102).\n";
  o << "  \"libraries\": {";
  for (std::size_t i = 0; i < d.libraries.size(); ++i) {
    const ProposedLibrary& p = d.libraries[i];
    const KnownLibrary& l = *p.library;
    o << (i ? "," : "") << "\n";
    comment(o, "    ", p.why);
    o << "    \"" << l.name << "\": {\"backend\": ";
    if (p.backends.size() == 1)
      o << "\"" << p.backends.front() << "\"";
    else
      o << "[" << quoted_list(p.backends) << "]";
    o << ", \"headers\": [" << quoted_list(l.headers) << "]";
    if (!l.namespaces.empty()) o << ", \"namespaces\": [" << quoted_list(l.namespaces) << "]";
    if (!l.symbols.empty()) o << ", \"symbols\": [" << quoted_list(l.symbols) << "]";
    o << "}";
  }
  o << (d.libraries.empty() ? "},\n" : "\n  },\n");
  for (const auto& note : d.notes) comment(o, "  ", "note: " + note);
  if (!configurations.configurations.empty()) {
    comment(o, "  ",
            "Configurations: the build selects a backend per command (its folder on -I, its macros); a "
            "source is checked in each configuration that compiles it, with that backend as the interface");
    o << "  \"configurations\": {";
    for (std::size_t i = 0; i < configurations.configurations.size(); ++i) {
      const ProposedConfiguration& c = configurations.configurations[i];
      o << (i ? "," : "") << "\n";
      comment(o, "    ", c.why);
      o << "    \"" << c.name << "\": {\"backend\": \"" << c.name << "\"";
      if (!c.defines.empty()) o << ", \"defines\": [" << quoted_list(c.defines) << "]";
      if (!c.include.empty()) o << ", \"include\": [" << quoted_list(c.include) << "]";
      o << "}";
    }
    o << "\n  },\n";
  } else if (!configurations.not_proposed.empty()) {
    std::string why;
    for (const std::string& n : configurations.not_proposed) why += (why.empty() ? "" : "; ") + n;
    comment(o, "  ",
            "no configurations proposed: macros named after a backend, too weak to select it: " + why +
                " (docs/config.md, `configurations`)");
  }

  comment(
      o, "  ",
      d.tensor_type.empty()
          ? "Qualified names of the tensor types (templates allowed), for the operator and scalar rules: " +
                (d.tensor_why.empty()
                     ? std::string("no frontend class with tensor members (shape, dtype, ...) found")
                     : d.tensor_why)
          : "tensor type: " + d.tensor_why);
  o << "  \"tensor_types\": [" << (d.tensor_type.empty() ? "" : "\"" + d.tensor_type + "\"") << "],\n";
  o << "  // Functions that turn a tensor into a host scalar (EL301), e.g. \"mylib::Tensor::item\".\n"
    << "  \"scalar_extractors\": [],\n";
  if (d.model) {
    comment(o, "  ", "`emberlint analyze` (model " + d.model->model + "): " + d.model->why);
    o << "  \"ops_interface\": {\n    \"model\": \"" << d.model->model << "\"";
    for (const auto& [key, value] : d.model->keys) o << ",\n    \"" << key << "\": " << value;
    o << "\n  },\n";
  } else {
    o << "  // No inventory model was recognised here, so `emberlint analyze` has nothing to inventory (it "
         "says\n"
      << "  // so and exits 0). Add an \"ops_interface\" to get the op x backend matrix (the models:\n"
      << "  // interface_class, functions, enum_dispatch, op_classes_subclasses, op_classes_methods,\n"
      << "  // registrations; docs/inventory.md).\n";
    for (const auto& r : d.model_rejected) comment(o, "  ", "not a model: " + r);
  }
  o << "  // Severities: \"error\", \"warning\", \"info\" or \"off\", by rule code or name; some rules take\n"
    << "  // options: {\"EL301\": {\"allowed_files\": [\"examples/**\"]}, \"EL200\": {\"ops_namespace\": "
       "\"ns::ops\"}}.\n"
    << "  \"rules\": {},\n";
  o << "  // Rules to skip in some files, e.g. {\"tests/backend_internals/**\": [\"EL104\"]}.\n"
    << "  \"per_file_ignores\": {},\n";
  std::string std_why;
  const std::vector<std::string> flags = [&] {
    std::vector<std::string> f;
    if (std::string std = project_std(root, commands, std_why); !std.empty()) f.push_back(std);
    const auto folders = commands.empty() ? d.include_folders : database_include_folders(root, commands);
    for (const auto& i : folders) f.push_back("-I" + i);  // "." for the root
    return f;
  }();
  const std::vector<ExpectedErrors> expected = unbuilt_errors(root, commands, d, flags);
  if (!expected.empty()) {
    o << "  // Parse errors expected on this machine (partial units, no failure of the run): the first name "
         "each\n"
      << "  // unit's unconditional includes miss, a header the build writes or an SDK that is not "
         "installed,\n"
      << "  // and errors in the vendored code a unit includes.\n"
      << "  \"expected_parse_errors\": {";
    for (std::size_t i = 0; i < expected.size(); ++i) {
      o << (i ? "," : "") << "\n";
      comment(o, "    ", expected[i].why);
      o << "    \"" << expected[i].glob << "\": [" << quoted_list(expected[i].causes) << "]";
    }
    o << "\n  },\n";
  }
  comment(o, "  ", d.exclude_why.empty() ? "" : "not linted: " + d.exclude_why);
  o << "  \"exclude\": [" << quoted_list(d.exclude) << "],\n";
  comment(o, "  ",
          "Used when no compile database is given with -p, and for files the database does not compile: " +
              std_why +
              (commands.empty() ? "; the include folders the project's own includes resolve against"
                                : "; the include folders at least half of the database's units pass"));
  o << "  \"compile_flags\": [" << quoted_list(flags) << "]\n}\n";
  return o.str();
}

}  // namespace emberlint
