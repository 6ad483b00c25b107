#include "reports/outputs.hpp"

#include <algorithm>
#include <stdexcept>

#include "lint/findings/fixes.hpp"

namespace emberlint {

namespace fs = std::filesystem;

namespace {

std::string format_of(const OutputFormats& formats, const fs::path& file) {
  const std::string ext = file.extension().string();
  for (const auto& [e, f] : formats.by_extension) {
    if (e == ext) return f;
  }
  return "";
}

std::string known_extensions(const OutputFormats& formats) {
  std::string s;
  for (const auto& [e, f] : formats.by_extension) s += (s.empty() ? "" : ", ") + e + " (" + f + ")";
  return s;
}

// Only with the trailing slash: `-o build` where build/ exists stays an error rather than five new files.
bool is_folder(const std::string& output) {
  return !output.empty() && output.back() == '/';
}

}  // namespace

const OutputFormats kCheckOutputs{"text",
                                  {{".txt", "text"},
                                   {".json", "json"},
                                   {".sarif", "sarif"},
                                   {".xml", "junit"},
                                   {".md", "markdown"},
                                   {".markdown", "markdown"}},
                                  "emberlint",
                                  {"text", "json", "sarif", "junit", "markdown"}};

const OutputFormats kAnalyzeOutputs{"table",
                                    {{".txt", "table"},
                                     {".json", "json"},
                                     {".html", "html"},
                                     {".htm", "html"},
                                     {".csv", "csv"},
                                     {".md", "markdown"},
                                     {".markdown", "markdown"},
                                     {".sarif", "sarif"},
                                     {".xml", "junit"}},
                                    "inventory",
                                    {"table", "json", "html", "csv", "markdown", "sarif"}};

std::string prepare_outputs(const std::vector<OutputTarget>& targets) {
  for (const OutputTarget& t : targets) {
    if (t.file.empty()) continue;
    if (t.in_folder) {
      std::error_code ec;
      fs::create_directories(t.file.parent_path(), ec);
      if (ec) return "-o " + t.file.parent_path().string() + "/: cannot create this folder: " + ec.message();
    }
    if (std::string problem = output_file_problem(t.file); !problem.empty()) {
      std::error_code ec;
      if (fs::is_directory(t.file, ec))
        problem += " (-o " + t.file.string() + "/ writes one report per format there)";
      return "-o " + t.file.string() + ": " + problem;
    }
  }
  return "";
}

std::string plan_outputs(const std::vector<std::string>& outputs, const std::string& format,
                         const OutputFormats& formats, std::vector<OutputTarget>& targets) {
  try {
    targets = resolve_outputs(outputs, format, formats);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return prepare_outputs(targets);
}

bool for_code_scanning(const std::vector<OutputTarget>& targets) {
  return std::any_of(targets.begin(), targets.end(),
                     [](const OutputTarget& t) { return t.format == "sarif" || t.format == "github"; });
}

std::string extension_of(const OutputFormats& formats, const std::string& format) {
  for (const auto& [e, f] : formats.by_extension) {
    if (f == format) return e;
  }
  return "." + format;
}

std::vector<OutputTarget> resolve_outputs(const std::vector<std::string>& outputs, const std::string& format,
                                          const OutputFormats& formats) {
  std::vector<OutputTarget> out;
  if (outputs.empty()) {
    out.push_back({{}, format.empty() ? formats.default_format : format});
    return out;
  }
  for (const std::string& o : outputs) {
    if (o.empty()) throw std::invalid_argument("-o: empty file name");
    if (is_folder(o)) {
      if (!format.empty())
        throw std::invalid_argument("-o " + o + ": a folder receives one report per format (" + [&] {
          std::string s;
          for (const auto& f : formats.folder_formats) s += (s.empty() ? "" : ", ") + f;
          return s;
        }() + "); drop --format, or name a file");
      for (const std::string& f : formats.folder_formats)
        out.push_back({fs::path(o) / (formats.folder_stem + extension_of(formats, f)), f, true});
      continue;
    }
    std::string from_extension = format_of(formats, o);
    if (outputs.size() == 1) {
      out.push_back({o, !format.empty()           ? format
                        : !from_extension.empty() ? from_extension
                                                  : formats.default_format});
      continue;
    }
    if (from_extension.empty())
      throw std::invalid_argument("-o " + o +
                                  ": with several -o, each report's format comes from its extension, "
                                  "and '" +
                                  fs::path(o).extension().string() +
                                  "' names none (known: " + known_extensions(formats) + ")");
    if (!format.empty() && format != from_extension)
      throw std::invalid_argument("-o " + o + ": its extension says " + from_extension +
                                  " but --format says " + format + "; with several -o, drop --format");
    out.push_back({o, from_extension});
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (fs::path(out[i].file).lexically_normal() == fs::path(out[j].file).lexically_normal())
        throw std::invalid_argument("-o " + out[i].file.string() + ": named twice");
    }
  }
  return out;
}

}  // namespace emberlint
