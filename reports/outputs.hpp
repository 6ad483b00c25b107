// Where a run's reports go: `-o FILE` (repeatable), the format of each from `--format` or from the file's
// extension, or an output folder that receives one report per format. Shared by `check` and `analyze`.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace emberlint {

// One report to write: `file` empty means standard output.
struct OutputTarget {
  std::filesystem::path file;
  std::string format;
  bool in_folder = false;  // from -o FOLDER/: the folder is created when missing
};

struct OutputFormats {
  std::string default_format;                                     // without --format and -o ("text", "table")
  std::vector<std::pair<std::string, std::string>> by_extension;  // {".json", "json"}, ...: the first wins
  std::string folder_stem;                  // an output folder's file names ("emberlint")
  std::vector<std::string> folder_formats;  // what an output folder receives
};

// Resolves the -o values and --format (`format` empty when not given) into targets:
// - no -o: standard output in `format` or the default;
// - one -o FILE: `format` when given, else the extension's, else the default (an unknown extension is fine);
// - several -o: each file's format from its extension; an unknown extension, or --format with several files
//   whose extensions say otherwise, is an error;
// - -o FOLDER/ (with the trailing slash): folder_stem.<ext> for each of folder_formats, the folder created.
// Throws std::invalid_argument with a message naming the -o value.
std::vector<OutputTarget> resolve_outputs(const std::vector<std::string>& outputs, const std::string& format,
                                          const OutputFormats& formats);

// The formats of `emberlint check` and of `emberlint analyze`.
extern const OutputFormats kCheckOutputs;
extern const OutputFormats kAnalyzeOutputs;

// resolve_outputs, then prepare_outputs: fills `targets`, or returns the problem (a usage error).
std::string plan_outputs(const std::vector<std::string>& outputs, const std::string& format,
                         const OutputFormats& formats, std::vector<OutputTarget>& targets);

// Whether a target is read by code scanning (SARIF, GitHub annotations): its paths are repository-relative.
bool for_code_scanning(const std::vector<OutputTarget>& targets);

// Creates the output folders and checks that every target can be written: the first problem ("-o x: ..."),
// or empty. Run before any analysis, so nothing runs for a report that cannot be written.
std::string prepare_outputs(const std::vector<OutputTarget>& targets);

// The extension a format's file gets in an output folder (the first in by_extension).
std::string extension_of(const OutputFormats& formats, const std::string& format);

}  // namespace emberlint
