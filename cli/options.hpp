// The options `check` and `analyze` share, declared once: where the project and its build are, which rules
// run, where the reports go, the cache, colors and the exit status.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace emberlint::cli {

struct CommonOptions {
  std::vector<std::string> paths;
  std::string build_dir, config_file, format, color = "auto", cache_dir, project_root;
  std::vector<std::string> outputs, select, ignore;
  unsigned jobs = 0;
  bool exit_zero = false, quiet = false, no_cache = false;
};

// What differs between the commands: the help of the paths and of --config, and the formats they write.
struct CommonHelp {
  std::string paths, config, formats_help, outputs_help;
  std::vector<std::string> formats;
};

// -j N: a count, 0 for all cores (CLI11's NonNegativeNumber would print its whole double range).
inline std::string job_count(const std::string& text) {
  bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  return digits ? std::string() : "expected 0 (all cores) or a number of jobs, got '" + text + "'";
}

inline void add_common_options(CLI::App& app, CommonOptions& o, const CommonHelp& help) {
  app.add_option("paths", o.paths, help.paths);
  app.add_option("-p,--build-dir", o.build_dir, "folder with compile_commands.json");
  app.add_option("--config", o.config_file, help.config);
  app.add_option("-j,--jobs", o.jobs, "parallel jobs (0 = all cores)")->check(job_count);
  app.add_option("--format", o.format, help.formats_help)->check(CLI::IsMember(help.formats));
  app.add_option("-o,--output", o.outputs, help.outputs_help)->allow_extra_args(false);
  app.add_option("--select", o.select, "only these rules (codes, names or prefixes)")
      ->delimiter(',')
      ->allow_extra_args(false);
  app.add_option("--ignore", o.ignore, "not these rules (codes, names or prefixes)")
      ->delimiter(',')
      ->allow_extra_args(false);
  app.add_flag("--exit-zero", o.exit_zero, "exit 0 when there are findings (not for errors or failures)");
  app.add_flag("--quiet", o.quiet, "no summary line");
  app.add_option("--color", o.color, "auto, always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  CLI::Option* no_cache = app.add_flag("--no-cache", o.no_cache, "do not use the result cache");
  app.add_option("--cache-dir", o.cache_dir, "the result cache (default: $XDG_CACHE_HOME/emberlint)")
      ->excludes(no_cache);
  app.add_option("--project-root", o.project_root,
                 "what SARIF and GitHub annotation paths are relative to (default: the git top level)");
}

// Prints the usage error MESSAGE on stderr, prefixed as every error of the tool is, and returns exit status 2.
int usage_error(const std::string& message);

// The `analyze` command: its own options (everything after "analyze"); returns the exit status.
int analyze_command(const std::vector<std::string>& args);

}  // namespace emberlint::cli
