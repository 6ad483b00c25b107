#include "lint/project/config.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "lint/project/parse_errors.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint {

namespace fs = std::filesystem;
using nlohmann::json;

const BackendLayer* Config::backend(const std::string& name) const {
  for (const auto& b : backends) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

const ConfigurationSpec* Config::configuration(const std::string& name) const {
  for (const auto& c : configurations) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

bool Config::excluded(const fs::path& absolute) const {
  return std::any_of(exclude.begin(), exclude.end(), [&](const Glob& g) { return g.matches_path(absolute); });
}

bool Config::expects_parse_error(const fs::path& file, const std::string& cause) const {
  return std::any_of(expected_parse_errors.begin(), expected_parse_errors.end(), [&](const auto& e) {
    return e.glob.matches_path(file) &&
           std::any_of(e.causes.begin(), e.causes.end(),
                       [&](const std::string& c) { return c == "any" || c == cause; });
  });
}

namespace {

// What one file says, before merging: which sections it sets.
struct Layer {
  Config config;
  bool inherit = false;
  std::set<std::string> present;  // top-level keys and "layers.<key>"
};

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t prev = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cur = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1)});
      prev = cur;
    }
  }
  return row[b.size()];
}

// `a`, `a::b_2`: identifiers joined by "::" (a loop: std::regex recurses per character and overflows the
// stack on long text).
bool qualified_name(const std::string& s) {
  std::size_t i = 0;
  while (true) {
    if (i == s.size() || !(std::isalpha(static_cast<unsigned char>(s[i])) || s[i] == '_')) return false;
    while (i < s.size() && is_identifier_char(s[i])) ++i;
    if (i == s.size()) return true;
    if (s.compare(i, 2, "::") != 0) return false;
    i += 2;
  }
}

const char* type_name(const json& j) {
  switch (j.type()) {
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    case json::value_t::string:
      return "a string";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::null:
      return "null";
    default:
      return "a number";
  }
}

class Reader {
 public:
  Reader(fs::path file, const RuleNames& names) : file_(std::move(file)), names_(names) {}

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw ConfigError(file_.string() + ": " + path + ": " + what);
  }

  void keys(const json& obj, const std::string& path, const std::vector<std::string>& allowed) const {
    for (const auto& [key, value] : obj.items()) {
      if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
      std::string msg = "unknown key '" + key + "'";
      std::string best;
      std::size_t best_d = 3;
      for (const auto& a : allowed) {
        std::size_t d = edit_distance(key, a);
        if (d < best_d) best_d = d, best = a;
      }
      if (!best.empty()) msg += " (did you mean '" + best + "'?)";
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(path.empty() ? "$" : path, msg + "; expected one of: " + list);
    }
  }
  const json& object(const json& j, const std::string& path) const {
    if (!j.is_object()) fail(path, std::string("expected an object, found ") + type_name(j));
    return j;
  }
  std::string string(const json& j, const std::string& path) const {
    if (!j.is_string()) fail(path, std::string("expected a string, found ") + type_name(j));
    return j.get<std::string>();
  }
  bool boolean(const json& j, const std::string& path) const {
    if (!j.is_boolean()) fail(path, std::string("expected true or false, found ") + type_name(j));
    return j.get<bool>();
  }
  std::vector<std::string> strings(const json& j, const std::string& path) const {
    if (j.is_string()) return {j.get<std::string>()};
    if (!j.is_array()) fail(path, std::string("expected an array of strings, found ") + type_name(j));
    std::vector<std::string> out;
    for (std::size_t i = 0; i < j.size(); ++i)
      out.push_back(string(j[i], path + "[" + std::to_string(i) + "]"));
    return out;
  }
  Glob glob(const std::string& pattern, const std::string& path, const fs::path& base) const {
    try {
      return Glob(pattern, base);
    } catch (const GlobError& e) {
      fail(path, "bad glob '" + pattern + "': " + e.what());
    }
  }
  std::vector<Glob> globs(const json& j, const std::string& path, const fs::path& base) const {
    std::vector<Glob> out;
    auto list = strings(j, path);
    for (std::size_t i = 0; i < list.size(); ++i) {
      out.push_back(glob(list[i], j.is_array() ? path + "[" + std::to_string(i) + "]" : path, base));
    }
    return out;
  }
  std::vector<std::string> options_of(const std::string& code) const { return names_.options_of(code); }
  std::string rule_code(const std::string& key, const std::string& path) const {
    if (key == "ALL") return key;
    auto code = names_.code_of(key);
    if (!code) fail(path, "unknown rule '" + key + "'; expected a rule code or name (see `emberlint rules`)");
    return *code;
  }

 private:
  fs::path file_;
  const RuleNames& names_;
};

const std::vector<std::string> kTopKeys = {
    "inherit", "layers",           "libraries", "tensor_types",  "scalar_extractors",     "ops_interface",
    "rules",   "per_file_ignores", "exclude",   "compile_flags", "expected_parse_errors", "configurations"};

json parse_json(const std::string& text, const fs::path& file) {
  try {
    return json::parse(text, nullptr, /*allow_exceptions=*/true, /*ignore_comments=*/true);
  } catch (const json::parse_error& e) {
    SourceText src(text);
    std::size_t byte = e.byte > 0 ? e.byte - 1 : 0;
    auto [line, col] = src.position(std::min(byte, text.size()));
    std::string what = e.what();
    if (auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
    throw ConfigError(file.string() + ":" + std::to_string(line) + ":" + std::to_string(col) +
                      ": invalid JSON: " + what);
  } catch (const json::out_of_range& e) {
    // A number beyond a double ("1e400"): the parser says which, not where.
    std::string what = e.what();
    if (auto colon = what.find("] "); colon != std::string::npos) what = what.substr(colon + 2);
    throw ConfigError(file.string() + ": invalid JSON: " + what);
  }
}

// Relative -I style paths in compile_flags are relative to the config's folder.
std::vector<std::string> absolute_flags(const std::vector<std::string>& flags, const fs::path& base) {
  static const std::vector<std::string> kPathFlags = {"-I", "-isystem", "-iquote", "-idirafter", "-include"};
  std::vector<std::string> out;
  bool next_is_path = false;
  for (const auto& f : flags) {
    if (next_is_path) {
      out.push_back(fs::path(f).is_absolute() ? f : (base / f).lexically_normal().string());
      next_is_path = false;
      continue;
    }
    bool handled = false;
    for (const auto& p : kPathFlags) {
      if (f == p) {
        out.push_back(f);
        next_is_path = true;
        handled = true;
        break;
      }
      if (f.size() > p.size() && f.compare(0, p.size(), p) == 0 && p == "-I") {
        std::string rest = f.substr(p.size());
        out.push_back(p + (fs::path(rest).is_absolute() ? rest : (base / rest).lexically_normal().string()));
        handled = true;
        break;
      }
    }
    if (!handled) out.push_back(f);
  }
  return out;
}

Layer read_layer(const json& root, const fs::path& file, const RuleNames& names) {
  Reader r(file, names);
  Layer layer;
  Config& c = layer.config;
  const fs::path base = file.parent_path();
  c.file = file;
  c.root = base;
  r.object(root, "$");
  r.keys(root, "", kTopKeys);
  for (const auto& [key, value] : root.items()) layer.present.insert(key);

  if (root.contains("inherit")) layer.inherit = r.boolean(root["inherit"], "inherit");
  if (root.contains("layers")) {
    const json& layers = r.object(root["layers"], "layers");
    r.keys(layers, "layers", {"frontend", "backends", "shared", "tests", "glue"});
    for (const auto& [key, value] : layers.items()) layer.present.insert("layers." + key);
    if (layers.contains("frontend")) c.frontend = r.globs(layers["frontend"], "layers.frontend", base);
    if (layers.contains("tests")) c.tests = r.globs(layers["tests"], "layers.tests", base);
    if (layers.contains("glue")) c.glue = r.globs(layers["glue"], "layers.glue", base);
    if (layers.contains("shared")) c.shared = r.globs(layers["shared"], "layers.shared", base);
    if (layers.contains("backends")) {
      const json& backends = r.object(layers["backends"], "layers.backends");
      for (const auto& [name, value] : backends.items()) {
        const std::string path = "layers.backends." + name;
        BackendLayer b;
        b.name = name;
        if (!value.is_object()) {
          b.globs = r.globs(value, path, base);
        } else {
          r.keys(value, path,
                 {"paths", "public", "interop", "uses", "tests", "compile_database", "compile_flags"});
          if (!value.contains("paths")) r.fail(path, "missing key 'paths' (the backend's files)");
          b.globs = r.globs(value["paths"], path + ".paths", base);
          if (value.contains("public")) b.public_headers = r.globs(value["public"], path + ".public", base);
          if (value.contains("interop")) b.interop = r.globs(value["interop"], path + ".interop", base);
          if (value.contains("uses")) b.uses = r.strings(value["uses"], path + ".uses");
          if (value.contains("tests")) b.tests = r.globs(value["tests"], path + ".tests", base);
          if (value.contains("compile_database")) {
            fs::path db = r.string(value["compile_database"], path + ".compile_database");
            if (db.empty()) r.fail(path + ".compile_database", "expected a build folder, found \"\"");
            b.compile_database = (base / db).lexically_normal();
          }
          if (value.contains("compile_flags"))
            b.compile_flags = r.strings(value["compile_flags"], path + ".compile_flags");
        }
        c.backends.push_back(std::move(b));
      }
    }
  }
  if (root.contains("libraries")) {
    const json& libs = r.object(root["libraries"], "libraries");
    for (const auto& [name, value] : libs.items()) {
      const std::string path = "libraries." + name;
      r.object(value, path);
      r.keys(value, path, {"backend", "headers", "namespaces", "symbols"});
      Library lib;
      lib.name = name;
      if (!value.contains("backend"))
        r.fail(path, "missing key 'backend' (the backend layer that owns " + name + ")");
      if (value["backend"].is_array()) {
        std::vector<std::string> served = r.strings(value["backend"], path + ".backend");
        if (served.empty()) r.fail(path + ".backend", "expected at least one backend");
        lib.backend = served.front();
        lib.also.assign(served.begin() + 1, served.end());
      } else {
        lib.backend = r.string(value["backend"], path + ".backend");
      }
      if (value.contains("headers")) lib.headers = r.globs(value["headers"], path + ".headers", {});
      if (value.contains("namespaces")) lib.namespaces = r.strings(value["namespaces"], path + ".namespaces");
      if (value.contains("symbols")) lib.symbols = r.globs(value["symbols"], path + ".symbols", {});
      c.libraries.push_back(std::move(lib));
    }
  }
  if (root.contains("tensor_types")) {
    c.tensor_types = r.strings(root["tensor_types"], "tensor_types");
    for (std::size_t i = 0; i < c.tensor_types.size(); ++i) {
      for (const std::string& pattern : tensor_type_patterns(c.tensor_types[i])) {
        r.glob(pattern, "tensor_types[" + std::to_string(i) + "]", {});
      }
    }
  }
  if (root.contains("scalar_extractors")) {
    c.scalar_extractors = r.strings(root["scalar_extractors"], "scalar_extractors");
    for (std::size_t i = 0; i < c.scalar_extractors.size(); ++i) {
      const std::string& e = c.scalar_extractors[i];
      r.glob(e.rfind("::", 0) == 0 ? e.substr(2) : e, "scalar_extractors[" + std::to_string(i) + "]", {});
    }
  }
  // The ops interface belongs to `emberlint analyze`, which validates its contents.
  if (root.contains("ops_interface")) r.object(root["ops_interface"], "ops_interface");
  if (root.contains("rules")) {
    const json& rules = r.object(root["rules"], "rules");
    for (const auto& [key, value] : rules.items()) {
      const std::string path = "rules." + key;
      std::string code = r.rule_code(key, path);
      if (code == "ALL") r.fail(path, "'ALL' is not a rule; name each rule");
      RuleSetting setting;
      std::string sev;
      std::string sev_path = path;
      if (value.is_object()) {
        // Options beyond the severity belong to the rule that reads them.
        std::vector<std::string> allowed = r.options_of(code);
        allowed.insert(allowed.begin(), "severity");
        r.keys(value, path, allowed);
        if (value.contains("severity")) sev = r.string(value["severity"], sev_path = path + ".severity");
        if (value.contains("ops_namespace")) {
          std::string ns = r.string(value["ops_namespace"], path + ".ops_namespace");
          if (ns.rfind("::", 0) == 0) ns.erase(0, 2);
          if (!qualified_name(ns)) {
            r.fail(path + ".ops_namespace",
                   "expected a qualified namespace name such as \"ember::ops\", found \"" + ns + "\"");
          }
          setting.ops_namespace = ns;
        }
        if (value.contains("allowed_files")) {
          setting.allowed_files = r.globs(value["allowed_files"], path + ".allowed_files", base);
        }
        if (value.contains("allowed_functions")) {
          setting.allowed_functions = r.globs(value["allowed_functions"], path + ".allowed_functions", {});
        }
        if (value.contains("report_type_only")) {
          setting.report_type_only = r.boolean(value["report_type_only"], path + ".report_type_only");
        }
      } else {
        sev = r.string(value, path);
      }
      if (!sev.empty()) {
        setting.severity = parse_severity(sev);
        if (!setting.severity)
          r.fail(sev_path, "unknown severity '" + sev + "'; expected error, warning, info or off");
      }
      c.rules[code] = setting;
    }
  }
  if (root.contains("per_file_ignores")) {
    const json& pfi = r.object(root["per_file_ignores"], "per_file_ignores");
    for (const auto& [pattern, codes] : pfi.items()) {
      const std::string path = "per_file_ignores." + pattern;
      PerFileIgnore entry{r.glob(pattern, path, base), {}};
      auto list = r.strings(codes, path);
      for (std::size_t i = 0; i < list.size(); ++i) {
        entry.codes.push_back(r.rule_code(list[i], path + "[" + std::to_string(i) + "]"));
      }
      c.per_file_ignores.push_back(std::move(entry));
    }
  }
  if (root.contains("expected_parse_errors")) {
    const json& epe = r.object(root["expected_parse_errors"], "expected_parse_errors");
    for (const auto& [pattern, causes] : epe.items()) {
      const std::string path = "expected_parse_errors." + pattern;
      ExpectedParseErrors entry{r.glob(pattern, path, base), r.strings(causes, path)};
      for (std::size_t i = 0; i < entry.causes.size(); ++i) {
        const auto& known = parse_error_causes();
        if (entry.causes[i] == "any" || std::find(known.begin(), known.end(), entry.causes[i]) != known.end())
          continue;
        std::string list;
        for (const auto& k : known) list += k + ", ";
        r.fail(path + "[" + std::to_string(i) + "]",
               "unknown cause '" + entry.causes[i] + "'; expected one of: " + list + "any");
      }
      c.expected_parse_errors.push_back(std::move(entry));
    }
  }
  if (root.contains("exclude")) c.exclude = r.globs(root["exclude"], "exclude", base);
  if (root.contains("configurations")) {
    const json& configurations = r.object(root["configurations"], "configurations");
    for (const auto& [name, value] : configurations.items()) {
      const std::string path = "configurations." + name;
      r.object(value, path);
      r.keys(value, path, {"backend", "defines", "include"});
      ConfigurationSpec spec;
      spec.name = name;
      if (value.contains("backend")) spec.backend = r.string(value["backend"], path + ".backend");
      if (value.contains("defines")) spec.defines = r.strings(value["defines"], path + ".defines");
      if (value.contains("include")) spec.include = r.globs(value["include"], path + ".include", base);
      if (spec.defines.empty() && spec.include.empty())
        r.fail(path,
               "a configuration needs 'defines' or 'include': the macros or include folders that "
               "select it on a command line");
      for (const std::string& d : spec.defines) {
        if (d.empty() || d.front() == '=' || d.rfind("-D", 0) == 0)
          r.fail(path + ".defines", "expected a macro name or NAME=VALUE (without -D), found \"" + d + "\"");
      }
      c.configurations.push_back(std::move(spec));
    }
  }
  if (root.contains("compile_flags")) {
    c.compile_flags = absolute_flags(r.strings(root["compile_flags"], "compile_flags"), base);
  }
  // Cross-checks: every library names a backend layer this file (or, when inheriting, a parent) declares.
  if (!layer.inherit) {
    std::string known;
    for (const auto& b : c.backends) known += (known.empty() ? "" : ", ") + b.name;
    auto check = [&](const std::string& name, const std::string& path) {
      if (!c.backend(name))
        r.fail(path, "'" + name + "' is not a backend in layers.backends (declared: " +
                         (known.empty() ? "none" : known) + ")");
    };
    for (const auto& lib : c.libraries) {
      check(lib.backend, "libraries." + lib.name + ".backend");
      for (const auto& b : lib.also) check(b, "libraries." + lib.name + ".backend");
    }
    for (const auto& b : c.backends) {
      for (const auto& u : b.uses) check(u, "layers.backends." + b.name + ".uses");
    }
    for (const auto& spec : c.configurations) {
      if (!spec.backend.empty()) check(spec.backend, "configurations." + spec.name + ".backend");
    }
  }
  return layer;
}

// Objects merge key by key (backends and libraries by name, rules by code); lists replace the parent's,
// except `exclude`, `per_file_ignores` and `expected_parse_errors`, which add to it.
Config merge(const Config& parent, const Layer& child) {
  Config out = parent;
  const Config& c = child.config;
  out.file = c.file;
  out.root = c.root;
  auto has = [&](const std::string& k) { return child.present.count(k) > 0; };
  if (has("layers.frontend")) out.frontend = c.frontend;
  if (has("layers.tests")) out.tests = c.tests;
  if (has("layers.glue")) out.glue = c.glue;
  if (has("layers.shared")) out.shared = c.shared;
  for (const auto& spec : c.configurations) {
    auto it = std::find_if(out.configurations.begin(), out.configurations.end(),
                           [&](auto& x) { return x.name == spec.name; });
    if (it != out.configurations.end()) {
      *it = spec;
    } else {
      out.configurations.push_back(spec);
    }
  }
  for (const auto& b : c.backends) {
    auto it =
        std::find_if(out.backends.begin(), out.backends.end(), [&](auto& x) { return x.name == b.name; });
    if (it != out.backends.end()) {
      *it = b;
    } else {
      out.backends.push_back(b);
    }
  }
  for (const auto& l : c.libraries) {
    auto it =
        std::find_if(out.libraries.begin(), out.libraries.end(), [&](auto& x) { return x.name == l.name; });
    if (it != out.libraries.end()) {
      *it = l;
    } else {
      out.libraries.push_back(l);
    }
  }
  if (has("tensor_types")) out.tensor_types = c.tensor_types;
  if (has("scalar_extractors")) out.scalar_extractors = c.scalar_extractors;
  for (const auto& [code, s] : c.rules) out.rules[code] = s;
  out.per_file_ignores.insert(out.per_file_ignores.end(), c.per_file_ignores.begin(),
                              c.per_file_ignores.end());
  out.exclude.insert(out.exclude.end(), c.exclude.begin(), c.exclude.end());
  out.expected_parse_errors.insert(out.expected_parse_errors.end(), c.expected_parse_errors.begin(),
                                   c.expected_parse_errors.end());
  if (has("compile_flags")) out.compile_flags = c.compile_flags;
  return out;
}

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ConfigError(file.string() + ": cannot read the configuration file");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

std::vector<std::string> tensor_type_patterns(const std::string& entry) {
  std::string name = entry.rfind("::", 0) == 0 ? entry.substr(2) : entry;
  std::vector<std::string> out{name};
  // The first '<' that is not escaped, inside a [...] class or inside a {...} group opens the
  // template arguments.
  bool in_class = false;
  int braces = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '\\') {
      ++i;
    } else if (in_class) {
      in_class = c != ']';
    } else if (c == '[') {
      in_class = true;
      if (i + 1 < name.size() && (name[i + 1] == '!' || name[i + 1] == '^')) ++i;
      if (i + 1 < name.size() && name[i + 1] == ']') ++i;  // a leading ']' is a member
    } else if (c == '{' || c == '}') {
      braces += c == '{' ? 1 : -1;
    } else if (c == '<' && braces == 0) {
      if (i > 0) out.push_back(name.substr(0, i));
      break;
    }
  }
  return out;
}

void validate_config_text(const std::string& text, const fs::path& file, const RuleNames& names) {
  read_layer(parse_json(text, file), file, names);
}

std::optional<fs::path> ConfigLoader::nearest_file(const fs::path& folder) {
  std::vector<fs::path> visited;
  std::optional<fs::path> found;
  for (fs::path dir = folder;; dir = dir.parent_path()) {
    if (auto it = nearest_.find(dir); it != nearest_.end()) {
      found = it->second;
      break;
    }
    visited.push_back(dir);
    std::error_code ec;
    if (fs::is_regular_file(dir / kConfigFileName, ec)) {
      found = dir / kConfigFileName;
      break;
    }
    if (dir == dir.parent_path()) break;
  }
  for (const auto& d : visited) nearest_[d] = found;
  return found;
}

std::shared_ptr<const Config> ConfigLoader::load_locked(const fs::path& file) {
  if (auto it = by_file_.find(file); it != by_file_.end()) return it->second;
  Layer layer = read_layer(parse_json(read_file(file), file), file, names_);
  std::shared_ptr<const Config> result;
  if (layer.inherit) {
    fs::path above = file.parent_path().parent_path();
    auto parent_file = file.parent_path() == above ? std::nullopt : nearest_file(above);
    Config parent;
    if (parent_file) parent = *load_locked(*parent_file);
    Config merged = merge(parent, layer);
    for (const auto& lib : merged.libraries) {
      const bool all_known = std::all_of(lib.also.begin(), lib.also.end(),
                                         [&](const std::string& b) { return merged.backend(b) != nullptr; });
      if (!merged.backend(lib.backend) || !all_known) {
        throw ConfigError(file.string() + ": libraries." + lib.name + ".backend: '" + lib.backend +
                          "' is not a backend in layers.backends of this file or the files it inherits from");
      }
    }
    result = std::make_shared<const Config>(std::move(merged));
  } else {
    result = std::make_shared<const Config>(std::move(layer.config));
  }
  by_file_[file] = result;
  return result;
}

std::shared_ptr<const Config> ConfigLoader::for_folder(const fs::path& folder,
                                                       const fs::path& fallback_root) {
  std::lock_guard lock(mutex_);
  auto file = nearest_file(folder);
  if (!file) {
    auto key = fs::path("<default>") / fallback_root.relative_path();
    if (auto it = by_file_.find(key); it != by_file_.end()) return it->second;
    auto c = std::make_shared<Config>();
    c->root = fallback_root;
    by_file_[key] = c;
    return c;
  }
  return load_locked(*file);
}

std::shared_ptr<const Config> ConfigLoader::load_file(const fs::path& file) {
  std::lock_guard lock(mutex_);
  return load_locked(file);
}

// The line of a config file where an entry's glob is written: after the key's components in order
// (`"layers"`, `"backends"`, `"metal"`), the glob as a JSON string; 0 when it is not found.
unsigned config_line(const fs::path& config_file, const std::string& key, const std::string& pattern) {
  if (config_file.empty()) return 0;
  static std::mutex mutex;  // rules explain findings from several threads
  static std::map<fs::path, std::string> texts;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = texts.find(config_file);
  if (it == texts.end()) {
    std::ifstream in(config_file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    it = texts.emplace(config_file, s.str()).first;
  }
  const std::string& text = it->second;
  std::size_t from = 0;
  std::istringstream parts(key);
  std::string part;
  while (std::getline(parts, part, '.')) {
    if (auto at = text.find("\"" + part + "\"", from); at != std::string::npos) from = at;
  }
  auto at = text.find("\"" + pattern + "\"", from);
  if (at == std::string::npos) at = text.find("\"" + pattern + "\"");
  if (at == std::string::npos) return 0;
  return 1 + static_cast<unsigned>(
                 std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

}  // namespace emberlint
