// Per-unit mode's compile command, extra arguments and --shard K/N (lint/run/units.hpp).
#include "lint/run/units.hpp"

#include <algorithm>
#include <charconv>

#include "lint/project/config.hpp"
#include "lint/project/project.hpp"
#include "lint/run/runner.hpp"

namespace emberlint {

std::optional<std::vector<std::string>> take_unit_command(std::vector<std::string>& args) {
  auto dashes = std::find(args.begin(), args.end(), "--");
  if (dashes == args.end()) return std::nullopt;
  std::vector<std::string> command(dashes + 1, args.end());
  args.erase(dashes, args.end());
  return command;
}

void check_unit_mode(const CheckOptions& options) {
  if (!options.unit_command) return;
  const std::string what = "a compile command after `--` (per-unit mode)";
  if (options.unit_command->empty())
    throw UsageError("nothing after `--`: expected the compile command of FILE");
  if (options.paths.size() != 1) {
    throw UsageError(what + " needs exactly one FILE before `--`, got " +
                     std::to_string(options.paths.size()));
  }
  if (options.build_dir) throw UsageError(what + " and -p exclude each other");
  if (options.diff_rev || options.units_of) throw UsageError(what + " excludes --diff and --units-of");
  std::error_code ec;
  if (std::filesystem::is_directory(options.paths.front(), ec)) {
    throw UsageError(options.paths.front().string() + ": per-unit mode lints one file, not a folder");
  }
}

void add_extra_args(CompileCommand& command, const std::vector<std::string>& before,
                    const std::vector<std::string>& after) {
  if (before.empty() && after.empty()) return;
  auto cleaned = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> argv{"c++"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return clean_command(argv, command.file, command.directory).arguments;
  };
  std::vector<std::string> args = cleaned(before);
  args.insert(args.end(), command.arguments.begin(), command.arguments.end());
  std::vector<std::string> tail = cleaned(after);
  args.insert(args.end(), tail.begin(), tail.end());
  command.arguments = std::move(args);
}

Shard parse_shard(const std::string& text) {
  auto number = [](std::string_view s, unsigned& out) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
  };
  Shard shard;
  std::size_t slash = text.find('/');
  std::string_view view(text);
  bool ok = slash != std::string::npos && number(view.substr(0, slash), shard.index) &&
            number(view.substr(slash + 1), shard.count);
  if (!ok || shard.index < 1 || shard.index > shard.count) {
    throw UsageError("'" + text + "': expected K/N with 1 <= K <= N, such as 2/4 (the second of four)");
  }
  return shard;
}

std::vector<CompileCommand> load_project_commands(const Config& config,
                                                  const std::optional<std::filesystem::path>& build_dir) {
  std::vector<CompileCommand> out;
  if (build_dir) out = load_compile_database(*build_dir);
  for (const BackendLayer& b : config.backends) {
    if (!b.compile_database) continue;
    auto mine = [&](const CompileCommand& c) {
      return std::any_of(b.globs.begin(), b.globs.end(),
                         [&](const Glob& g) { return g.matches_path(c.file); });
    };
    std::vector<CompileCommand> own;
    try {
      own = load_compile_database(*b.compile_database);
    } catch (const CompileDatabaseError& e) {
      throw CompileDatabaseError("layers.backends." + b.name + ".compile_database: " + e.what());
    }
    std::erase_if(own, [&](const CompileCommand& c) { return !mine(c); });
    if (own.empty()) {
      throw CompileDatabaseError("layers.backends." + b.name + ".compile_database: " +
                                 b.compile_database->string() + " compiles none of the backend's files");
    }
    std::erase_if(out, mine);
    out.insert(out.end(), std::make_move_iterator(own.begin()), std::make_move_iterator(own.end()));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const CompileCommand& a, const CompileCommand& b) { return a.file < b.file; });
  return out;
}

CompileCommand stated_command(const std::filesystem::path& file, const std::filesystem::path& directory,
                              const std::vector<std::string>& flags) {
  CompileCommand c;
  c.file = file;
  c.directory = directory;
  const std::string ext = file.extension().string();
  const bool c_family = ext == ".c" || ext == ".m";
  for (const auto& f : flags) {
    if (c_family && f.rfind("-std=", 0) == 0 && f.find("++") != std::string::npos) continue;
    c.arguments.push_back(f);
  }
  std::vector<std::string> language = language_arguments(file);
  if (language.empty() && is_header_path(file)) language = {"-x", "c++"};
  c.arguments.insert(c.arguments.begin(), language.begin(), language.end());
  if (c_family) c.driver = "clang";
  return c;
}

std::optional<CompileCommand> stated_backend_command(const Config& config,
                                                     const std::filesystem::path& file) {
  for (const BackendLayer& b : config.backends) {
    if (b.compile_flags.empty()) continue;
    if (std::none_of(b.globs.begin(), b.globs.end(), [&](const Glob& g) { return g.matches_path(file); }))
      continue;
    return stated_command(file, config.root, b.compile_flags);
  }
  return std::nullopt;
}

}  // namespace emberlint
