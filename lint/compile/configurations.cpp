#include "lint/compile/configurations.hpp"

#include <algorithm>
#include <tuple>

namespace emberlint {

namespace fs = std::filesystem;

namespace {

// The value of a flag given joined ("-DX", "-Idir") or as the next argument ("-D X"); advances `i` past a
// separate value. Empty when `a` is not `flag`.
std::string flag_value(const std::vector<std::string>& args, std::size_t& i, const std::string& flag) {
  const std::string& a = args[i];
  if (a == flag) return i + 1 < args.size() ? args[++i] : std::string();
  if (a.size() > flag.size() && a.compare(0, flag.size(), flag) == 0) return a.substr(flag.size());
  return {};
}

std::string macro_name(const std::string& definition) {
  return definition.substr(0, definition.find('='));
}

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::set<std::string> command_defines(const CompileCommand& command) {
  std::map<std::string, std::string> defined;  // name -> "NAME" or "NAME=VALUE"
  const auto& args = command.arguments;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (std::string d = flag_value(args, i, "-D"); !d.empty()) {
      defined[macro_name(d)] = d;
    } else if (std::string u = flag_value(args, i, "-U"); !u.empty()) {
      defined.erase(u);
    }
  }
  std::set<std::string> out;
  for (const auto& [name, definition] : defined) {
    out.insert(name);
    // -DX defines X as 1.
    out.insert(definition.find('=') == std::string::npos ? definition + "=1" : definition);
  }
  return out;
}

std::vector<fs::path> command_include_folders(const CompileCommand& command) {
  static const std::vector<std::string> kFlags = {"-I", "-isystem", "-iquote", "-idirafter"};
  std::vector<fs::path> out;
  const auto& args = command.arguments;
  for (std::size_t i = 0; i < args.size(); ++i) {
    for (const std::string& flag : kFlags) {
      std::size_t at = i;
      std::string folder = flag_value(args, at, flag);
      if (folder.empty()) continue;
      i = at;
      fs::path p(folder);
      out.push_back((p.is_absolute() ? p : command.directory / p).lexically_normal());
      break;
    }
  }
  return out;
}

std::size_t ConfigurationSpec::matches(const std::set<std::string>& command_defines,
                                       const std::vector<fs::path>& command_includes) const {
  for (const std::string& d : defines) {
    if (!command_defines.count(d)) return 0;
  }
  for (const Glob& g : include) {
    const bool found = std::any_of(command_includes.begin(), command_includes.end(), [&](const fs::path& p) {
      // "src/backend/cpu" matches the folder written with or without a trailing separator.
      return g.matches_path(p) || (!p.has_filename() && g.matches_path(p.parent_path()));
    });
    if (!found) return 0;
  }
  return defines.size() + include.size();
}

std::string ConfigurationSpec::describe() const {
  std::string out;
  for (const std::string& d : defines) out += (out.empty() ? "-D" : " and -D") + d;
  for (const Glob& g : include) out += (out.empty() ? "-I " : " and -I ") + g.pattern();
  return out;
}

const ConfigurationSpec* configuration_of(const CompileCommand& command,
                                          const std::vector<ConfigurationSpec>& specs) {
  if (specs.empty()) return nullptr;
  const std::set<std::string> defines = command_defines(command);
  const std::vector<fs::path> includes = command_include_folders(command);
  const ConfigurationSpec* best = nullptr;
  std::size_t best_count = 0;
  for (const ConfigurationSpec& spec : specs) {
    const std::size_t n = spec.matches(defines, includes);
    if (n > best_count) best = &spec, best_count = n;
  }
  return best;
}

ConfigurationPlan plan_configurations(const std::vector<CompileCommand>& commands,
                                      const std::vector<ConfigurationSpec>& specs, const fs::path& root,
                                      const fs::path& config_file) {
  ConfigurationPlan plan;
  for (const ConfigurationSpec& spec : specs) plan.units_per_configuration[spec.name] = 0;
  auto shown = [&](const fs::path& p) {
    std::string r = relative_to(p, root);
    return r.empty() ? p.generic_string() : r;
  };
  // Files whose commands were merged: by configuration, with how many commands it had.
  std::vector<std::string> merged_examples, dropped_examples;
  std::size_t merged = 0, dropped = 0;
  for (std::size_t begin = 0; begin < commands.size();) {
    std::size_t end = begin + 1;
    while (end < commands.size() && commands[end].file == commands[begin].file) ++end;
    std::map<std::string, std::size_t> count;  // commands per configuration of this file
    for (std::size_t i = begin; i < end; ++i) {
      const ConfigurationSpec* spec = configuration_of(commands[i], specs);
      std::string name = spec ? spec->name : std::string();
      if (specs.empty() && i > begin) {
        ++count[name];
        continue;
      }
      if (count[name]++ == 0) plan.units.push_back({commands[i], name});
    }
    for (const auto& [name, n] : count) {
      if (n > 1 && !specs.empty()) {
        ++merged;
        if (merged_examples.size() < 3)
          merged_examples.push_back(shown(commands[begin].file) + " (" + std::to_string(n) + " in " +
                                    (name.empty() ? std::string("no configuration") : "'" + name + "'") +
                                    ")");
      }
    }
    if (specs.empty() && end - begin > 1) {
      ++dropped;
      if (dropped_examples.size() < 3)
        dropped_examples.push_back(shown(commands[begin].file) + " (" + std::to_string(end - begin) + ")");
    }
    begin = end;
  }
  if (!specs.empty()) {
    for (const ConfiguredUnit& u : plan.units) ++plan.units_per_configuration[u.configuration];
  }
  auto list = [](const std::vector<std::string>& examples, std::size_t n) {
    std::string out;
    for (const std::string& e : examples) out += (out.empty() ? "" : ", ") + e;
    return n > examples.size() ? out + ", ..." : out;
  };
  if (merged)
    plan.notes.push_back(plural(merged, "file has", "files have") +
                         " several compile commands in one configuration that differ only in flags no "
                         "configuration selects on, each checked once with its first: " +
                         list(merged_examples, merged));
  if (dropped)
    plan.notes.push_back(plural(dropped, "file is", "files are") +
                         " compiled by several commands, each checked with its first only: " +
                         list(dropped_examples, dropped) +
                         "; state `configurations` in the config to check each (docs/config.md)");
  std::string present;
  for (const auto& [name, n] : plan.units_per_configuration) {
    if (n == 0) continue;
    present += (present.empty() ? "" : ", ") + (name.empty() ? std::string("no configuration") : name) +
               " (" + plural(n, "unit", "units") + ")";
  }
  for (const ConfigurationSpec& spec : specs) {
    if (plan.units_per_configuration[spec.name] > 0) continue;
    plan.warnings.push_back(
        (config_file.empty() ? std::string("the config") : shown(config_file)) + ": configurations." +
        spec.name + " (" + spec.describe() + ") selects no command of the compile database; " +
        (present.empty() ? std::string("it has no command") : "its commands are in: " + present));
  }
  return plan;
}

void mark_configuration(std::vector<Diagnostic>& diagnostics, const std::string& configuration) {
  if (configuration.empty()) return;
  for (Diagnostic& d : diagnostics) d.configurations = {configuration};
}

void merge_configurations(std::vector<Diagnostic>& diagnostics) {
  // Diagnostic::key() by value: the findings move.
  using Key = std::tuple<fs::path, unsigned, unsigned, std::string, std::string>;
  std::map<Key, std::size_t> first;  // -> index in out
  std::vector<Diagnostic> out;
  out.reserve(diagnostics.size());
  for (Diagnostic& d : diagnostics) {
    auto [it, added] = first.emplace(Key{d.file, d.line, d.column, d.code, d.message}, out.size());
    if (added) {
      out.push_back(std::move(d));
      continue;
    }
    std::vector<std::string>& into = out[it->second].configurations;
    into.insert(into.end(), d.configurations.begin(), d.configurations.end());
  }
  for (Diagnostic& d : out) {
    std::sort(d.configurations.begin(), d.configurations.end());
    d.configurations.erase(std::unique(d.configurations.begin(), d.configurations.end()),
                           d.configurations.end());
  }
  diagnostics = std::move(out);
}

std::string join_configurations(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace emberlint
