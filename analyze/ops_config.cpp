#include "analyze/ops_config.hpp"

#include <algorithm>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analyze/model.hpp"

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

PerBackend per_backend(const Reader& r, const json& j, const std::string& path, const Config& config) {
  PerBackend out;
  if (!j.is_object()) {
    out["*"] = r.strings(j, path);
    return out;
  }
  for (const auto& [backend, value] : j.items()) {
    if (backend != "*" && !config.backend(backend))
      r.fail(path + "." + backend, "'" + backend + "' is not a backend in layers.backends");
    out[backend] = r.strings(value, path + "." + backend);
  }
  return out;
}

std::size_t index_of(const Reader& r, const json& j, const std::string& path) {
  if (!j.is_number_unsigned()) r.fail(path, "expected an argument position (0 is the first argument)");
  return j.get<std::size_t>();
}

// One registration form: {"call" | "registrar" | "table": NAME, "op": N, "creator": N | "template",
// "device": {"arg": N, "equals": VALUE}}.
RegistrationForm form(const Reader& r, const json& j, const std::string& path) {
  if (!j.is_object())
    r.fail(path, R"(expected an object such as {"call": "REGISTER_OP", "op": 1, "creator": 0})");
  r.keys(j, path, {"call", "registrar", "table", "op", "creator", "device"});
  RegistrationForm f;
  f.path = path;
  int kinds = 0;
  for (auto [key, kind] : {std::pair{"call", RegistrationForm::Kind::call},
                           std::pair{"registrar", RegistrationForm::Kind::registrar},
                           std::pair{"table", RegistrationForm::Kind::table}}) {
    if (!j.contains(key)) continue;
    ++kinds;
    f.kind = kind;
    f.name = NamePattern(r.string(j[key], path + "." + key));
  }
  if (kinds != 1) r.fail(path, "expected exactly one of \"call\", \"registrar\", \"table\"");
  if (j.contains("op")) f.op = index_of(r, j["op"], path + ".op");
  if (j.contains("creator")) {
    const json& c = j["creator"];
    if (c.is_string() && c.get<std::string>() == "template" && f.kind == RegistrationForm::Kind::registrar) {
      f.creator_is_template = true;
    } else if (c.is_string()) {
      r.fail(path + ".creator", "expected an argument position (\"template\" only for a registrar)");
    } else {
      f.creator = index_of(r, c, path + ".creator");
    }
  }
  if (j.contains("device")) {
    const json& d = j["device"];
    if (!d.is_object() || !d.contains("arg") || !d.contains("equals"))
      r.fail(path + ".device",
             R"(expected {"arg": N, "equals": "DEVICE_GPU" or ["DEVICE_GPU", "Device::gpu"]})");
    r.keys(d, path + ".device", {"arg", "equals"});
    f.device = index_of(r, d["arg"], path + ".device.arg");
    f.device_is = r.strings(d["equals"], path + ".device.equals");
  }
  return f;
}

// {"backend": [form, ...], ...} or [form, ...] for every backend.
std::map<std::string, std::vector<RegistrationForm>> registration_forms(const Reader& r, const json& j,
                                                                        const Config& config) {
  std::map<std::string, std::vector<RegistrationForm>> out;
  auto list = [&](const json& forms, const std::string& path) {
    std::vector<RegistrationForm> v;
    if (forms.is_object()) {
      v.push_back(form(r, forms, path));
      return v;
    }
    if (!forms.is_array() || forms.empty()) r.fail(path, "expected a non-empty array of registration forms");
    for (std::size_t i = 0; i < forms.size(); ++i)
      v.push_back(form(r, forms[i], path + "[" + std::to_string(i) + "]"));
    return v;
  };
  if (j.is_array()) {
    out["*"] = list(j, "registrations");
    return out;
  }
  if (!j.is_object()) r.fail("registrations", "expected an array of forms, or {backend: [forms]}");
  // One form object on its own is for every backend; else the keys are backends.
  if (j.contains("call") || j.contains("registrar") || j.contains("table")) {
    out["*"] = list(j, "registrations");
    return out;
  }
  for (const auto& [backend, value] : j.items()) {
    if (backend != "*" && !config.backend(backend))
      r.fail("registrations." + backend, "'" + backend + "' is not a backend in layers.backends");
    out[backend] = list(value, "registrations." + backend);
  }
  return out;
}

OpsConfig read(const json& section, const fs::path& file, const Config& config) {
  Reader r(file);
  const fs::path base = file.parent_path();
  if (!section.is_object()) r.fail("", "expected an object");
  std::string models;
  for (const auto& m : inventory_models())
    models += (models.empty() ? "\"" : ", \"") + std::string(m.name) + "\"";
  if (section.contains("model") && section.contains("shape"))
    r.fail("shape", "\"shape\" is the older name of \"model\": give one of them");
  const char* key = section.contains("shape") ? "shape" : "model";
  if (!section.contains(key)) r.fail("model", "missing; expected one of " + models);
  const std::string name = r.string(section[key], key);
  const ModelInfo* info = find_model(name);
  if (!info) r.fail(key, std::string("unknown ") + key + " '" + name + "'; expected one of " + models);
  const std::vector<std::string> common = {"model",          "shape",       "headers", "fallback_namespaces",
                                           "fallback_calls", "guess_flags", "roles"};
  std::vector<std::string> allowed = common;
  for (const auto& m : inventory_models()) {
    for (auto k : m.keys) {
      if (std::find(allowed.begin(), allowed.end(), k) == allowed.end()) allowed.emplace_back(k);
    }
  }
  r.keys(section, "", allowed);
  for (const auto& [k, value] : section.items()) {
    if (std::find(common.begin(), common.end(), k) != common.end()) continue;
    if (std::find(info->keys.begin(), info->keys.end(), k) == info->keys.end())
      r.fail(k, "not a key of the model \"" + std::string(info->name) + "\"");
  }
  for (std::size_t i = 0; i < info->required; ++i) {
    std::string k(info->keys[i]);
    if (!section.contains(k)) r.fail(k, "missing; the model \"" + std::string(info->name) + "\" needs it");
  }
  OpsConfig out;
  out.model = std::string(info->name);
  out.file = file;
  out.shape = info->name == "interface_class" ? OpsConfig::Shape::class_
              : info->name == "functions"     ? OpsConfig::Shape::functions
                                              : OpsConfig::Shape::model;
  if (section.contains("class")) out.interface_class = r.string(section["class"], "class");
  if (section.contains("namespace")) {
    // "" or "::" is the global namespace (a C API).
    if (!section["namespace"].is_string())
      r.fail("namespace", "expected a string (\"::\" for the global one)");
    out.ops_namespace = section["namespace"].get<std::string>();
    if (out.ops_namespace == "::") out.ops_namespace.clear();
    if (out.ops_namespace.rfind("::", 0) == 0) out.ops_namespace.erase(0, 2);
  }
  auto pattern = [&](const char* k, bool needs_op) {
    NamePattern p(r.string(section[k], k));
    if (needs_op && !p.has_op()) r.fail(k, "expected a pattern with {op}, e.g. \"{op}_{backend}\"");
    return p;
  };
  if (section.contains("op_names")) {
    out.op_names = pattern("op_names", true);
    if (out.op_names.has_backend()) r.fail("op_names", "a frontend name has no {backend}");
  }
  if (section.contains("implementation_names"))
    out.implementation_names = pattern("implementation_names", true);
  if (section.contains("enum")) out.enum_name = r.string(section["enum"], "enum");
  if (section.contains("base")) out.base_class = r.string(section["base"], "base");
  if (section.contains("methods")) out.methods = per_backend(r, section["methods"], "methods", config);
  if (section.contains("dispatch")) out.dispatch = per_backend(r, section["dispatch"], "dispatch", config);
  if (section.contains("supports")) out.supports = per_backend(r, section["supports"], "supports", config);
  out.stub_calls = section.contains("stub_calls") ? r.globs(section["stub_calls"], "stub_calls", {})
                                                  : std::vector<Glob>{Glob("abort"), Glob("*_abort")};
  if (section.contains("registrations"))
    out.registrations = registration_forms(r, section["registrations"], config);
  if (section.contains("ops")) {
    out.op_list = r.strings(section["ops"], "ops");
    if (out.op_list.empty()) r.fail("ops", "expected at least one op name");
    if (section.contains("enum")) r.fail("ops", "give the op set either as \"enum\" or as \"ops\"");
  }
  if (section.contains("exclude")) out.exclude = r.globs(section["exclude"], "exclude", {});
  if (section.contains("headers")) {
    out.headers = r.globs(section["headers"], "headers", base);
  } else if (out.shape != OpsConfig::Shape::model) {
    r.fail("headers", "missing; the headers that declare the ops");
  }
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
  if (section.contains("roles")) {
    const json& roles = section["roles"];
    if (!roles.is_object()) r.fail("roles", "expected an object {backend: \"stubs\" or \"fallback\"}");
    for (const auto& [backend, value] : roles.items()) {
      const std::string path = "roles." + backend;
      if (!config.backend(backend)) r.fail(path, "'" + backend + "' is not a backend in layers.backends");
      std::string role = r.string(value, path);
      if (std::find(OpsConfig::kBackendRoles.begin(), OpsConfig::kBackendRoles.end(), role) ==
          OpsConfig::kBackendRoles.end()) {
        std::string expected;
        for (const auto& known : OpsConfig::kBackendRoles)
          expected += (expected.empty() ? "\"" : ", \"") + std::string(known) + "\"";
        r.fail(path, "unknown role '" + role + "'; expected one of " + expected);
      }
      out.roles[backend] = std::move(role);
    }
  }
  if (section.contains("fallback_methods"))
    out.fallback_methods = r.globs(section["fallback_methods"], "fallback_methods", {});
  if (section.contains("guess_flags")) {
    const json& g = section["guess_flags"];
    if (g.is_boolean()) {
      if (g.get<bool>()) out.guess_flags = {Glob("**")};
    } else {
      out.guess_flags = r.globs(g, "guess_flags", base);
    }
  }
  if (section.contains("migration")) {
    const json& m = section["migration"];
    if (!m.is_object()) r.fail("migration", "expected an object");
    r.keys(m, "migration", {"dispatch_header", "dispatch_include", "dispatch_source"});
    for (const char* k : {"dispatch_header", "dispatch_include", "dispatch_source"}) {
      if (!m.contains(k)) r.fail(std::string("migration.") + k, "missing");
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

std::vector<NamePattern> OpsConfig::patterns_for(const PerBackend& map, const std::string& backend) const {
  auto it = map.find(backend);
  if (it == map.end()) it = map.find("*");
  std::vector<NamePattern> out;
  if (it == map.end()) return out;
  for (const auto& p : it->second) out.push_back(NamePattern(p).for_backend(backend));
  return out;
}

std::vector<RegistrationForm> OpsConfig::forms_for(const std::string& backend) const {
  auto it = registrations.find(backend);
  if (it == registrations.end()) it = registrations.find("*");
  if (it == registrations.end()) return {};
  std::vector<RegistrationForm> out = it->second;
  for (auto& f : out) f.name = f.name.for_backend(backend);
  return out;
}

std::string RegistrationForm::describe() const {
  const char* what = kind == Kind::call ? "call" : kind == Kind::registrar ? "registrar" : "table";
  return std::string(what) + " '" + name.pattern() + "'";
}

void OpsConfig::fail(const std::string& path, const std::string& what) const {
  throw ConfigError(file.string() + ": ops_interface" + (path.empty() ? "" : "." + path) + ": " + what);
}

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
      throw NoOpsInterface(
          config.file.string() +
          ": no \"ops_interface\" section: it names the ops to inventory (the model, and the "
          "class, namespace, enum or base that declares them, with its headers): see "
          "docs/inventory.md#the-models");
    }
    file = next;
  }
}

}  // namespace emberlint::analyze
