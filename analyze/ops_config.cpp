#include "analyze/ops_config.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace emberlint::analyze {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

class Reader {
 public:
  explicit Reader(fs::path file) : file_(std::move(file)) {}
  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw ConfigError(file_.string() + ": ops_interface" + (path.empty() ? "" : "." + path) + ": " + what);
  }
  void keys(const json& obj, const std::string& path, const std::vector<std::string>& allowed) const {
    for (const auto& [key, value] : obj.items()) {
      if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(path.empty() ? key : path + "." + key, "unknown key; expected one of: " + list);
    }
  }
  std::string string(const json& j, const std::string& path) const {
    if (!j.is_string() || j.get<std::string>().empty()) fail(path, "expected a non-empty string");
    return j.get<std::string>();
  }
  std::vector<std::string> strings(const json& j, const std::string& path) const {
    if (j.is_string()) return {j.get<std::string>()};
    if (!j.is_array()) fail(path, "expected a string or an array of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < j.size(); ++i)
      out.push_back(string(j[i], path + "[" + std::to_string(i) + "]"));
    return out;
  }
  std::vector<Glob> globs(const json& j, const std::string& path, const fs::path& base) const {
    std::vector<Glob> out;
    for (const auto& s : strings(j, path)) {
      try {
        out.emplace_back(s, base);
      } catch (const GlobError& e) {
        fail(path, "bad glob '" + s + "': " + e.what());
      }
    }
    return out;
  }

 private:
  fs::path file_;
};

json read_json(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ConfigError(file.string() + ": cannot read the configuration file");
  std::ostringstream s;
  s << in.rdbuf();
  // The lint loader has already reported syntax errors with positions; this parse cannot fail differently.
  return json::parse(s.str(), nullptr, true, true);
}

OpsConfig read(const json& section, const fs::path& file, const Config& config) {
  Reader r(file);
  const fs::path base = file.parent_path();
  if (!section.is_object()) r.fail("", "expected an object");
  r.keys(section, "",
         {"shape", "class", "namespace", "headers", "implementations", "fallback_namespaces",
          "fallback_calls", "migration"});
  OpsConfig out;
  if (!section.contains("shape")) r.fail("shape", "missing; expected \"class\" or \"functions\"");
  std::string shape = r.string(section["shape"], "shape");
  if (shape == "class") {
    out.shape = OpsConfig::Shape::class_;
    if (!section.contains("class")) r.fail("class", "missing; the shape \"class\" needs the interface class");
    out.interface_class = r.string(section["class"], "class");
    if (section.contains("namespace")) r.fail("namespace", "only for the shape \"functions\"");
  } else if (shape == "functions") {
    out.shape = OpsConfig::Shape::functions;
    if (!section.contains("namespace"))
      r.fail("namespace", "missing; the shape \"functions\" needs the frontend namespace of the ops");
    out.ops_namespace = r.string(section["namespace"], "namespace");
    if (section.contains("class")) r.fail("class", "only for the shape \"class\"");
  } else {
    r.fail("shape", "unknown shape '" + shape + "'; expected \"class\" or \"functions\"");
  }
  if (!section.contains("headers")) r.fail("headers", "missing; the headers that declare the ops");
  out.headers = r.globs(section["headers"], "headers", base);
  if (section.contains("implementations")) {
    const json& impl = section["implementations"];
    if (!impl.is_object()) r.fail("implementations", "expected an object {backend: class or namespace}");
    for (const auto& [backend, value] : impl.items()) {
      if (!config.backend(backend))
        r.fail("implementations." + backend, "'" + backend + "' is not a backend in layers.backends");
      out.implementations[backend] = r.string(value, "implementations." + backend);
    }
  }
  if (section.contains("fallback_namespaces"))
    out.fallback_namespaces = r.strings(section["fallback_namespaces"], "fallback_namespaces");
  if (section.contains("fallback_calls"))
    out.fallback_calls = r.globs(section["fallback_calls"], "fallback_calls", {});
  if (section.contains("migration")) {
    const json& m = section["migration"];
    if (!m.is_object()) r.fail("migration", "expected an object");
    if (out.shape != OpsConfig::Shape::functions)
      r.fail("migration", "the migration moves free functions: it needs the shape \"functions\"");
    r.keys(m, "migration", {"dispatch_header", "dispatch_include", "dispatch_source"});
    for (const char* key : {"dispatch_header", "dispatch_include", "dispatch_source"}) {
      if (!m.contains(key)) r.fail(std::string("migration.") + key, "missing");
    }
    MigrationConfig mc;
    mc.dispatch_header =
        (base / r.string(m["dispatch_header"], "migration.dispatch_header")).lexically_normal();
    mc.dispatch_include = r.string(m["dispatch_include"], "migration.dispatch_include");
    mc.dispatch_source =
        (base / r.string(m["dispatch_source"], "migration.dispatch_source")).lexically_normal();
    mc.dispatch_namespace = out.ops_namespace.substr(0, out.ops_namespace.find("::")) + "::dispatch";
    out.migration = std::move(mc);
  }
  if (config.backends.empty()) r.fail("", "layers.backends names no backend to inventory");
  return out;
}

}  // namespace

OpsConfig load_ops_config(const Config& config) {
  if (config.file.empty()) {
    throw ConfigError("no .emberlint.json found: `emberlint analyze` needs its \"ops_interface\" section");
  }
  // The nearest file that has the section; an inheriting file may leave it to a parent.
  for (fs::path file = config.file;;) {
    json root = read_json(file);
    if (root.contains("ops_interface")) return read(root["ops_interface"], file, config);
    bool inherit = root.value("inherit", false);
    fs::path above = file.parent_path().parent_path();
    fs::path next;
    for (fs::path dir = above; !inherit ? false : true; dir = dir.parent_path()) {
      std::error_code ec;
      if (fs::is_regular_file(dir / kConfigFileName, ec)) {
        next = dir / kConfigFileName;
        break;
      }
      if (dir == dir.parent_path()) break;
    }
    if (next.empty() || file.parent_path() == above) {
      throw ConfigError(
          config.file.string() +
          ": no \"ops_interface\" section: `emberlint analyze` needs the interface to inventory "
          "(shape, class or namespace, headers)");
    }
    file = next;
  }
}

}  // namespace emberlint::analyze
