#include "lint/parse/prefix.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <system_error>

#include "lint/libclang/cursor.hpp"
#include "lint/parse/include_graph.hpp"
#include "lint/parse/parse.hpp"

namespace emberlint {

namespace fs = std::filesystem;

namespace {

// The line of the prefix's own text whose #include read each file, and the first line of each error: a
// header with an error of its own (an #error for another target, a missing SDK) is left out, and the
// others kept.
struct BuildErrors {
  std::set<unsigned> lines;  // lines of the prefix's text that an error goes back to
  bool elsewhere = false;    // an error that goes back to no line (a bad flag, say)
  std::string first;
};

BuildErrors build_errors(CXTranslationUnit tu) {
  std::map<CXFile, unsigned> line_of;  // each file read, to the prefix's line that included it
  clang::for_each_inclusion(tu, [&line_of](CXFile file, unsigned line) { line_of[file] = line; });
  CXFile main = clang_getFile(tu, clang::take(clang_getTranslationUnitSpelling(tu)).c_str());
  BuildErrors out;
  for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; ++i) {
    clang::Diagnostic d(clang_getDiagnostic(tu, i));
    if (d.severity() < CXDiagnostic_Error) continue;
    if (out.first.empty()) out.first = d.format();
    CXFile file = nullptr;
    unsigned line = 0;
    clang_getSpellingLocation(d.location(), &file, &line, nullptr, nullptr);
    if (file && clang_File_isEqual(file, main)) {
      out.lines.insert(line);
    } else if (auto it = line_of.find(file); file && it != line_of.end()) {
      out.lines.insert(it->second);
    } else {
      out.elsewhere = true;
    }
  }
  return out;
}

// A saved prefix takes 2.5 to 2.8 bytes per byte of the headers it read (emberlint's own seven prefixes of
// `emberlint check -p build/release`, 13 to 29 MB for 5 to 12 MB of headers): room for 4 is asked for, and
// for at least 4 MB, less than any prefix of the standard library takes.
constexpr std::uintmax_t kBytesPerByteRead = 4;
constexpr std::uintmax_t kSmallestPrefix = 4u << 20;
// Left free beside the prefixes, for whatever else writes there meanwhile.
constexpr std::uintmax_t kSpareSpace = 16u << 20;

}  // namespace

std::optional<Prefix> build_prefix(const clang::Index& index, const CompileCommand& command,
                                   const std::string& resource_dir, const std::vector<std::string>& headers,
                                   PrefixFolder& folder, const std::string& name, std::string* why) {
  auto fail = [why](std::string message) -> std::optional<Prefix> {
    if (why) *why = std::move(message);
    return std::nullopt;
  };
  if (folder.path().empty()) return fail(folder.note());
  const fs::path pch = folder.path() / (name + ".pch");
  // Not even the smallest prefix fits: the parse would be for nothing.
  if (!folder.reserve(kSmallestPrefix)) return fail(folder.note());
  folder.release(kSmallestPrefix);
  Prefix prefix;
  prefix.pch = pch;
  prefix.headers = headers;
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (prefix.headers.empty()) return fail("no header left to precompile");
    // The prefix's own text is a file beside it: the saved prefix names it, and a unit that loads the prefix
    // checks that it is still there, unchanged.
    CompileCommand c = command;
    c.file = fs::path(pch).replace_extension(command.driver == "clang++" ? ".hpp" : ".h");
    std::string text;
    for (const auto& h : prefix.headers) text += "#include <" + h + ">\n";
    {
      std::ofstream out(c.file, std::ios::binary | std::ios::trunc);
      out << text;
      if (!out.flush()) return fail("cannot write " + c.file.string());
    }
    UnitParse how;
    // With the preprocessing record (UnitParse's default): a unit that keeps one cannot load it otherwise.
    how.prefix_header = true;
    ParsedUnit parsed = parse_unit(index, c, resource_dir, how);
    if (!parsed) return fail("libclang could not parse it (error " + std::to_string(parsed.error) + ")");
    const BuildErrors errors = build_errors(parsed.tu.get());
    if (!errors.first.empty()) {
      if (attempt == 1 || errors.elsewhere) return fail(errors.first);
      std::vector<std::string> kept;
      for (std::size_t k = 0; k < prefix.headers.size(); ++k) {
        if (errors.lines.count(static_cast<unsigned>(k + 1)))
          prefix.dropped.push_back(prefix.headers[k]);
        else
          kept.push_back(prefix.headers[k]);
      }
      prefix.headers = std::move(kept);
      continue;
    }
    // Each file read, once: its bytes (an input of the units that reach it), the macros it tests and defines,
    // and the files its #include directives name, those read before behind their guards too (the
    // preprocessor's record of the directives it ran).
    CXTranslationUnit tu = parsed.tu.get();
    std::map<std::string, std::size_t> input_of;     // libclang's name of each file read: its index in inputs
    std::vector<std::set<std::string>> defines;      // parallel to inputs
    std::vector<std::vector<std::string>> includes;  // parallel to inputs
    clang::for_each_inclusion(tu, [&](CXFile file, unsigned) {
      const std::string name = clang::file_name(file);
      if (!input_of.emplace(name, prefix.inputs.size()).second) return;
      std::size_t size = 0;
      const char* bytes = clang_getFileContents(tu, file, &size);
      fs::path path(name);  // named as for_each_input names a unit's inputs
      if (path.is_relative()) path = c.directory / path;
      prefix.input_paths.insert(path);
      prefix.inputs.emplace_back(path, bytes ? std::string(bytes, size) : std::string());
      DirectiveScan scan = scan_directives(prefix.inputs.back().second);
      for (auto& [at, macro] : scan.tested) prefix.tested.insert(std::move(macro));
      prefix.defined.insert(scan.defined.begin(), scan.defined.end());
      defines.push_back(std::move(scan.defined));
      std::vector<std::string>& named = includes.emplace_back();
      clang::for_each_include_in(
          tu, file, [&](CXFile included, unsigned) { named.push_back(clang::file_name(included)); });
    });
    // What each header of the prefix reaches.
    prefix.defined_by.assign(prefix.headers.size(), {});
    prefix.reads.assign(prefix.headers.size(), {});
    CXFile own = clang_getFile(tu, c.file.c_str());
    clang::for_each_include_in(tu, own, [&](CXFile header, unsigned line) {
      auto first = input_of.find(clang::file_name(header));
      if (line == 0 || line > prefix.headers.size() || first == input_of.end()) return;
      std::set<std::size_t> reached{first->second};
      std::vector<std::size_t> todo{first->second};
      while (!todo.empty()) {
        const std::size_t at = todo.back();
        todo.pop_back();
        for (const std::string& next : includes[at]) {
          auto it = input_of.find(next);
          if (it != input_of.end() && reached.insert(it->second).second) todo.push_back(it->second);
        }
      }
      for (std::size_t k : reached) prefix.defined_by[line - 1].insert(defines[k].begin(), defines[k].end());
      prefix.reads[line - 1].assign(reached.begin(), reached.end());
    });
    std::uintmax_t read = 0;
    for (const auto& input : prefix.inputs) read += input.second.size();
    const std::uintmax_t size = read * kBytesPerByteRead;
    if (!folder.reserve(size)) return fail(folder.note());
    const int saved =
        clang_saveTranslationUnit(parsed.tu.get(), pch.c_str(), clang_defaultSaveOptions(parsed.tu.get()));
    folder.release(size);
    if (saved != CXSaveError_None) return fail("libclang could not save it as " + pch.string());
    return prefix;
  }
  return fail("no header left to precompile");
}

PrefixFit::PrefixFit(const Prefix& prefix) : prefix_(prefix) {}

void PrefixFit::includes(const std::string& name, bool unconditional) {
  for (std::size_t k = 0; k < prefix_.headers.size(); ++k) {
    if (prefix_.headers[k] != name) continue;
    reads_.insert(prefix_.reads[k].begin(), prefix_.reads[k].end());
    if (unconditional) available_.insert(prefix_.defined_by[k].begin(), prefix_.defined_by[k].end());
  }
}

PrefixUse PrefixFit::use() const {
  PrefixUse out;
  if (!fits_) return out;
  out.prefix = &prefix_;
  out.inputs.assign(reads_.begin(), reads_.end());
  return out;
}

void PrefixFit::defines(const std::string& macro) {
  if (prefix_.tested.count(macro)) fits_ = false;
}

void PrefixFit::tests(const std::string& macro) {
  if (prefix_.defined.count(macro) && !available_.count(macro)) fits_ = false;
}

const fs::path& PrefixFolder::path() {
  std::lock_guard lock(mutex_);  // made once, by the first of the threads that build prefixes
  return folder_.path();
}

bool PrefixFolder::reserve(std::uintmax_t bytes) {
  std::lock_guard lock(mutex_);
  const std::optional<std::uintmax_t> space = free_space(folder_.path());
  const std::uintmax_t taken = reserved_ + bytes + kSpareSpace;
  if (space && *space >= taken) {
    reserved_ += bytes;
    return true;
  }
  ++left_out_;
  needed_ = std::max(needed_, bytes + kSpareSpace);
  available_ = space ? *space : 0;
  return false;
}

void PrefixFolder::release(std::uintmax_t bytes) {
  std::lock_guard lock(mutex_);
  reserved_ -= std::min(reserved_, bytes);
}

std::string PrefixFolder::note() const {
  std::lock_guard lock(mutex_);
  const std::string tip = " (TMPDIR names another folder)";
  if (!folder_.error().empty())
    return folder_.error() + ": parsing without shared precompiled prefixes" + tip;
  if (left_out_ == 0) return {};
  return "the temporary folder " + temp_root().string() + " has " + megabytes(available_) +
         " free, a shared precompiled prefix needs about " + megabytes(needed_) + ": " +
         std::to_string(left_out_) +
         (left_out_ == 1 ? " was left out and its units parse" : " were left out and their units parse") +
         " those headers themselves" + tip;
}

}  // namespace emberlint
