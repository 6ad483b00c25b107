#include "lint/parse/parse.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "lint/libclang/cursor.hpp"
#include "lint/parse/extract_facts.hpp"
#include "lint/parse/include_graph.hpp"
#include "lint/parse/prefix.hpp"
#include "lint/project/parse_errors.hpp"
#include "lint/support/glob.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint {

namespace fs = std::filesystem;

std::string_view to_string(Via v) {
  switch (v) {
    case Via::direct:
      return "direct";
    case Via::macro:
      return "macro";
    case Via::alias:
      return "alias";
    case Via::typedef_:
      return "typedef";
    case Via::type:
      return "type";
  }
  return "direct";
}

namespace {

// Whether a forced include has a precompiled form beside it (`-include cmake_pch.hxx` with GCC's
// cmake_pch.hxx.gch from target_precompile_headers): clang's driver would load that file as its own PCH and
// fail on GCC's format.
bool has_precompiled_form(const CompileCommand& command, const std::string& header) {
  fs::path p(header);
  if (p.is_relative()) p = command.directory / p;
  std::error_code ec;
  for (const char* ext : {".gch", ".pch"}) {
    if (fs::exists(p.string() + ext, ec)) return true;
  }
  return false;
}

}  // namespace

namespace {

// The language of a file whose extension clang's driver does not know as C or C++, when its command names
// none (-x): the driver takes a .tpp, .ipp, .tcc, .inl or .h++ for a linker input and makes no parse of it
// (libclang's "error 4"), so the template and inline implementation files that a header includes are read as
// the headers they are, and a .ixx as the module interface it is (MSVC's name for clang's .cppm). Empty
// otherwise.
std::string unknown_extension_language(const CompileCommand& command) {
  const std::string ext = command.file.extension().string();
  const bool cxx = command.driver == "clang++";
  std::string language;
  if (ext == ".tpp" || ext == ".ipp" || ext == ".tcc" || ext == ".inl" || ext == ".h++")
    language = cxx ? "c++-header" : "c-header";
  else if (ext == ".ixx" && cxx)
    language = "c++-module";
  if (language.empty() || command.contents) return {};
  const bool stated =
      std::any_of(command.arguments.begin(), command.arguments.end(), [](const std::string& a) {
        return a.rfind("-x", 0) == 0 || a.rfind("--language", 0) == 0;  // -x LANG, -xLANG, --language=LANG
      });
  return stated ? std::string() : language;
}

}  // namespace

std::vector<std::string> libclang_arguments(const CompileCommand& command, const std::string& resource_dir) {
  std::vector<std::string> argv = {command.driver};
  const auto& args = command.arguments;
  for (std::size_t i = 0; i < args.size(); ++i) {
    // A precompiled header is the text of its header: the front end includes the header itself, past the
    // driver's lookup of a .gch/.pch beside it.
    std::string header = args[i] == "-include" && i + 1 < args.size() ? args[i + 1]
                         : args[i].rfind("-include", 0) == 0 && args[i].size() > 8 && args[i][8] != '-'
                             ? args[i].substr(8)
                             : std::string();
    if (!header.empty() && has_precompiled_form(command, header)) {
      fs::path p(header);
      if (p.is_relative()) p = command.directory / p;
      argv.insert(argv.end(), {"-Xclang", "-include", "-Xclang", p.lexically_normal().string()});
      if (args[i] == "-include") ++i;
      continue;
    }
    argv.push_back(args[i]);
  }
  // The command's folder, for the front end only: the driver's -working-directory changes the working folder
  // of the whole process (chdir), which moves every relative path of the run and races between threads.
  if (!command.directory.empty()) {
    argv.push_back("-Xclang");
    argv.push_back("-working-directory=" + command.directory.string());
  }
  if (!resource_dir.empty()) {
    argv.push_back("-resource-dir");
    argv.push_back(resource_dir);
  }
  if (auto language = unknown_extension_language(command); !language.empty())
    argv.insert(argv.end(), {"-x", language});
  argv.push_back("-fsyntax-only");
  argv.push_back("-w");  // rules do not read compiler warnings; errors still mark a failed parse
  // No error limit: past 20 errors clang stops parsing, and a partial unit's later code would go unchecked.
  argv.push_back("-ferror-limit=0");
  return argv;
}

void for_each_input(CXTranslationUnit tu, const fs::path& directory,
                    const std::function<void(const fs::path&, std::string_view)>& visit) {
  struct Context {
    CXTranslationUnit tu;
    const fs::path& directory;
    const std::function<void(const fs::path&, std::string_view)>& visit;
  } context{tu, directory, visit};
  auto each = [](CXFile file, CXSourceLocation*, unsigned, CXClientData data) {
    auto& c = *static_cast<Context*>(data);
    fs::path p = clang::file_name(file);
    if (p.is_relative()) p = c.directory / p;
    std::size_t size = 0;
    const char* bytes = clang_getFileContents(c.tu, file, &size);
    // As libclang spelled it: removing ".." lexically would be wrong where a folder is a symbolic link.
    c.visit(p, bytes ? std::string_view(bytes, size) : std::string_view());
  };
  clang_getInclusions(tu, each, &context);
}

void for_each_input(CXTranslationUnit tu, const fs::path& directory, const PrefixUse* prefix,
                    const std::function<void(const fs::path&, std::string_view)>& visit) {
  if (!prefix || !prefix->prefix) {
    for_each_input(tu, directory, visit);
    return;
  }
  const Prefix& loaded = *prefix->prefix;
  const fs::path folder = loaded.pch.parent_path();
  for_each_input(tu, directory, [&](const fs::path& p, std::string_view bytes) {
    if (p.parent_path() != folder && !loaded.input_paths.count(p)) visit(p, bytes);
  });
  for (std::size_t k : prefix->inputs) visit(loaded.inputs[k].first, loaded.inputs[k].second);
}

namespace {

// Every header the unit read with the file whose #include read it, names resolved as for_each_input's.
void for_each_include(CXTranslationUnit tu, const fs::path& directory,
                      const std::function<void(const fs::path&, const fs::path&)>& visit) {
  struct Context {
    const fs::path& directory;
    const std::function<void(const fs::path&, const fs::path&)>& visit;
  } context{directory, visit};
  auto each = [](CXFile file, CXSourceLocation* stack, unsigned depth, CXClientData data) {
    if (depth == 0) return;  // the main file
    auto& c = *static_cast<Context*>(data);
    CXFile includer = nullptr;
    clang_getSpellingLocation(stack[0], &includer, nullptr, nullptr, nullptr);
    if (!includer) return;
    auto resolve = [&c](CXFile f) {
      fs::path p = clang::file_name(f);
      return p.is_relative() ? c.directory / p : p;
    };
    c.visit(resolve(includer), resolve(file));
  };
  clang_getInclusions(tu, each, &context);
}

// How many of a unit's errors it keeps: the first ones say why, the rest mostly follow from them.
constexpr std::size_t kKeptErrors = 3;

// The line of a file that a location is on, as libclang read it.
std::string source_line(CXTranslationUnit tu, CXFile file, unsigned offset) {
  std::size_t size = 0;
  const char* data = file ? clang_getFileContents(tu, file, &size) : nullptr;
  if (!data || offset > size) return {};
  std::string_view text(data, size);
  std::size_t begin = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  begin = begin == std::string_view::npos || offset == 0 ? 0 : begin + 1;
  std::size_t end = text.find('\n', offset);
  return std::string(text.substr(begin, (end == std::string_view::npos ? size : end) - begin));
}

}  // namespace

bool collect_parse_errors(CXTranslationUnit tu, const fs::path& directory, ParseResult& result) {
  std::vector<ClassifiedError> classified;
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; ++i) {
    clang::Diagnostic d(clang_getDiagnostic(tu, i));
    if (d.severity() < CXDiagnostic_Error) continue;
    CXFile file = nullptr;
    unsigned line = 0, column = 0, offset = 0;
    clang_getExpansionLocation(d.location(), &file, &line, &column, &offset);
    ParseError e;
    e.message = "error: " + d.spelling();
    if (file) {
      fs::path p = clang::file_name(file);
      if (p.is_relative()) p = directory / p;
      e.where = p.lexically_normal();
      result.error_files.insert(e.where);
      e.line = line;
      e.column = column;
    }
    classified.push_back({e.message, source_line(tu, file, offset)});
    if (is_missing_file_error(e.message) && !e.where.empty()) result.missing_includes.push_back(e);
    if (result.errors.size() < kKeptErrors) result.errors.push_back(std::move(e));
  }
  if (result.errors.empty()) return false;
  const ParseError& first = result.errors.front();
  result.failure = first.message;
  result.failure_file = first.where;
  result.failure_line = first.line;
  result.failure_column = first.column;
  result.cause = unit_parse_cause(classified);
  // An empty header that a file with errors includes stands for one the configure step did not write (a
  // download an offline configure could not make): the errors follow from it, as from a missing one.
  if (result.cause == kCauseOther && !result.error_files.empty()) {
    bool empty_include = false;
    for_each_include(tu, directory, [&](const fs::path& includer, const fs::path& included) {
      std::error_code ec;
      if (!empty_include && result.error_files.count(includer.lexically_normal()) &&
          fs::file_size(included, ec) == 0 && !ec)
        empty_include = true;
    });
    if (empty_include) result.cause = std::string(kCauseMissingGenerated);
  }
  return true;
}

std::vector<EditProblem> check_edited_unit(const clang::Index& index, const CompileCommand& command,
                                           const std::string& resource_dir,
                                           const std::vector<EditedFile>& files) {
  std::vector<std::string> names;
  for (const auto& f : files) names.push_back(f.path.string());
  // No precompiled preamble: it is a temporary file to write, and a check must not fail where the first
  // parse (which may have skipped preamble bodies) did not.
  UnitParse how;
  how.preprocessing_record = false;
  how.quiet_includes = false;
  for (std::size_t i = 0; i < files.size(); ++i) how.unsaved.emplace_back(names[i], files[i].text);
  ParsedUnit parsed = parse_unit(index, command, resource_dir, how);
  const clang::TranslationUnit& tu = parsed.tu;
  std::vector<EditProblem> problems;
  if (!parsed) return {{"libclang could not parse the fixed file"}};
  std::vector<CXFile> handles;
  for (const auto& name : names) handles.push_back(clang_getFile(tu.get(), name.c_str()));
  unsigned n = clang_getNumDiagnostics(tu.get());
  for (unsigned i = 0; i < n; ++i) {
    clang::Diagnostic d(clang_getDiagnostic(tu.get(), i));
    if (d.severity() < CXDiagnostic_Error) continue;
    CXFile file = nullptr;
    unsigned offset = 0;
    clang_getExpansionLocation(d.location(), &file, nullptr, nullptr, &offset);
    EditProblem problem{"the fixed code does not compile: " + d.spelling()};
    for (std::size_t f = 0; f < handles.size(); ++f) {
      if (file && handles[f] && clang_File_isEqual(file, handles[f])) {
        problem.file = f;
        problem.offset = offset;
      }
    }
    problems.push_back(std::move(problem));
  }
  for (std::size_t f = 0; f < files.size(); ++f) {
    for (const auto& call : files[f].calls) {
      CXSourceLocation where =
          clang_getLocationForOffset(tu.get(), handles[f], static_cast<unsigned>(call.offset));
      CXCursor callee = clang_getCursorReferenced(clang_getCursor(tu.get(), where));
      std::string resolved = clang_Cursor_isNull(callee) ? std::string() : extraction::qualified_name(callee);
      if (resolved != call.qualified_name) {
        problems.push_back({"the call it writes would name " +
                                (resolved.empty() ? std::string("nothing") : "'" + resolved + "'") +
                                " there, not '" + call.qualified_name + "'",
                            f, call.offset});
      }
    }
  }
  return problems;
}

ParsedUnit::~ParsedUnit() {
  if (warm && tu) warm->give_back(warm_key, std::move(index), std::move(tu));
}

std::pair<std::size_t, std::size_t> WarmUnits::take_counts() {
  std::lock_guard lock(mutex_);
  return {std::exchange(reparsed_, 0), std::exchange(parsed_, 0)};
}

bool WarmUnits::needs_whole(const fs::path& file) {
  std::lock_guard lock(mutex_);
  return whole_.count(file) != 0;
}

void WarmUnits::mark_whole(const fs::path& file) {
  std::lock_guard lock(mutex_);
  whole_.insert(file);
}

void WarmUnits::count(bool reparsed) {
  std::lock_guard lock(mutex_);
  ++(reparsed ? reparsed_ : parsed_);
}

std::optional<WarmUnits::Held> WarmUnits::take(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto it = held_.find(key);
  if (it == held_.end()) return std::nullopt;
  Held held = std::move(it->second);
  held_.erase(it);
  return held;
}

void WarmUnits::give_back(const std::string& key, std::unique_ptr<clang::Index> index,
                          clang::TranslationUnit tu) {
  std::optional<Held> dropped;  // disposed outside the lock
  std::lock_guard lock(mutex_);
  Held& held = held_[key];
  held.tu = std::move(tu);  // a unit lent twice at once (two parses of one command) keeps the later one
  held.index = std::move(index);
  held.used = ++clock_;
  if (held_.size() > capacity_) {
    auto oldest = std::min_element(held_.begin(), held_.end(), [](const auto& a, const auto& b) {
      return a.second.used < b.second.used;
    });
    dropped = std::move(oldest->second);
    held_.erase(oldest);
  }
}

namespace {

// Whether `offset` of a main file's text lies where libclang's precompiled preamble ends: after at least one
// of the file's leading preprocessor directives, in the blank lines and comments between the last of them
// and the first line of code (or at its start), not inside a directive.
bool at_preamble_end(std::string_view text, std::size_t offset) {
  const std::size_t n = text.size();
  std::size_t i = 0;
  bool directive = false;
  while (true) {
    const std::size_t start = i;
    while (i < n && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    const bool code_next =
        i >= n || (text.compare(i, 2, "//") != 0 && text.compare(i, 2, "/*") != 0 && text[i] != '#');
    if (offset >= start && (offset < i || (offset == i && code_next))) return directive;
    if (code_next || offset < start) return false;
    if (text.compare(i, 2, "//") == 0) {
      i = std::min(n, text.find('\n', i));
    } else if (text.compare(i, 2, "/*") == 0) {
      const std::size_t end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? n : end + 2;
    } else {  // a directive, to the end of its last continued line
      directive = true;
      do {
        i = std::min(n, text.find('\n', i + 1));
      } while (i < n && i > 0 &&
               (text[i - 1] == '\\' || (text[i - 1] == '\r' && i > 1 && text[i - 2] == '\\')));
      if (offset > start && offset < i) return false;  // an error of the directive itself
    }
  }
}

// Whether a unit parsed through a precompiled preamble has an error at the preamble's end: a header of the
// preamble that leaves a scope open for the main file to close (Boost.Test's BOOST_FIXTURE_TEST_SUITE in a
// shared setup header, closed by BOOST_AUTO_TEST_SUITE_END() in each test), which a compiler reads as one
// text but a preamble cannot save, so clang reports "expected '}'" where the preamble stops.
bool preamble_cut_a_scope(CXTranslationUnit tu) {
  for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; ++i) {
    clang::Diagnostic d(clang_getDiagnostic(tu, i));
    if (d.severity() < CXDiagnostic_Error || !clang_Location_isFromMainFile(d.location())) continue;
    CXFile file = nullptr;
    unsigned offset = 0;
    clang_getSpellingLocation(d.location(), &file, nullptr, nullptr, &offset);
    std::size_t size = 0;
    const char* bytes = file ? clang_getFileContents(tu, file, &size) : nullptr;
    if (bytes && at_preamble_end(std::string_view(bytes, size), offset)) return true;
  }
  return false;
}

}  // namespace

ParsedUnit parse_unit(const clang::Index& index, const CompileCommand& command,
                      const std::string& resource_dir, const UnitParse& how) {
  // One libclang parse as `one` says.
  auto parse_once = [&](const UnitParse& one) {
    std::vector<std::string> argv = libclang_arguments(command, resource_dir);
    if (one.all_comments) argv.push_back("-fparse-all-comments");
    if (!one.include_pch.empty()) argv.insert(argv.end(), {"-include-pch", one.include_pch.string()});
    if (one.prefix_header)
      argv.insert(argv.end(), {"-x", command.driver == "clang++" ? "c++-header" : "c-header"});
    std::vector<const char*> cargv;
    for (const auto& a : argv) cargv.push_back(a.c_str());
    std::vector<CXUnsavedFile> unsaved;
    if (command.contents)
      unsaved.push_back({command.file.c_str(), command.contents->data(),
                         static_cast<unsigned long>(command.contents->size())});
    for (const auto& [name, text] : one.unsaved)
      unsaved.push_back({name.c_str(), text.data(), static_cast<unsigned long>(text.size())});
    // The editor's buffers (lint/support/source_text.hpp) stand for their files, unless the caller's edits
    // do.
    const std::shared_ptr<const Overlays> overlays = current_overlays();
    if (overlays) {
      for (const auto& overlay : *overlays) {
        const fs::path& path = overlay.first;
        auto edited = [&path](const auto& u) { return fs::path(u.first) == path; };
        if (std::none_of(one.unsaved.begin(), one.unsaved.end(), edited))
          unsaved.push_back(
              {path.c_str(), overlay.second.data(), static_cast<unsigned long>(overlay.second.size())});
      }
    }
    unsigned flags = CXTranslationUnit_KeepGoing;
    if (one.preprocessing_record) flags |= CXTranslationUnit_DetailedPreprocessingRecord;
    if (one.quiet_includes) flags |= CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles;
    if (one.prefix_header) {
      flags |= CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_ForSerialization |
               CXTranslationUnit_Incomplete;
    } else if (one.skip_preamble_bodies) {
      flags |= CXTranslationUnit_PrecompiledPreamble | CXTranslationUnit_CreatePreambleOnFirstParse |
               CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_LimitSkipFunctionBodiesToPreamble;
    }
    ParsedUnit out;
    if (one.warm) {
      // The key: everything the parse depends on but the files' contents, which a reparse reads again.
      out.warm = one.warm;
      out.warm_key = command.file.string() + '\n' + std::to_string(flags) + '\n';
      for (const auto& a : argv) out.warm_key += a + '\n';
      if (auto held = one.warm->take(out.warm_key)) {
        const int status =
            clang_reparseTranslationUnit(held->tu.get(), static_cast<unsigned>(unsaved.size()),
                                         unsaved.data(), clang_defaultReparseOptions(held->tu.get()));
        if (status == 0) {
          out.index = std::move(held->index);
          out.tu = std::move(held->tu);
          out.reparsed = true;
          one.warm->count(true);
          return out;
        }
        // A failed reparse leaves the unit unusable: it is disposed (with its index, after it) and parsed
        // anew.
      }
      out.index = std::make_unique<clang::Index>();
      one.warm->count(false);
    }
    CXTranslationUnit raw = nullptr;
    out.error = clang_parseTranslationUnit2FullArgv(
        (out.index ? *out.index : index).get(), command.file.c_str(), cargv.data(),
        static_cast<int>(cargv.size()), unsaved.data(), static_cast<unsigned>(unsaved.size()), flags, &raw);
    out.tu = clang::TranslationUnit(raw);
    if (out.error != CXError_Success)
      out.tu = clang::TranslationUnit();
    else if (!out.tu)
      out.error = CXError_Failure;
    return out;
  };
  UnitParse whole = how;
  whole.skip_preamble_bodies = false;
  const bool preamble = how.skip_preamble_bodies && !how.prefix_header;
  // A command known to need the whole parse goes to its warm unit of that parse at once.
  if (preamble && how.warm && how.warm->needs_whole(command.file)) return parse_once(whole);
  ParsedUnit out = parse_once(how);
  if (!preamble || !out || !preamble_cut_a_scope(out.tu.get())) return out;
  // Parsed again as one text, as the compiler reads it; the unit with the preamble is not kept warm.
  if (how.warm) how.warm->mark_whole(command.file);
  out.warm.reset();
  out = ParsedUnit();
  return parse_once(whole);
}

void for_each_skipped_range(CXTranslationUnit tu, const fs::path& directory,
                            const std::function<bool(const fs::path&)>& wanted,
                            const std::function<void(const fs::path&, std::string_view)>& visit) {
  CXSourceRangeList* skipped = clang_getAllSkippedRanges(tu);
  if (!skipped) return;
  struct File {
    fs::path path;
    std::string_view text;  // empty: not wanted, or unreadable
  };
  std::map<CXFile, File> files;
  for (unsigned i = 0; i < skipped->count; ++i) {
    CXFile file = nullptr;
    unsigned begin = 0, end = 0;
    clang_getSpellingLocation(clang_getRangeStart(skipped->ranges[i]), &file, nullptr, nullptr, &begin);
    clang_getSpellingLocation(clang_getRangeEnd(skipped->ranges[i]), nullptr, nullptr, nullptr, &end);
    if (!file || end <= begin) continue;
    auto [it, added] = files.try_emplace(file);
    if (added) {
      fs::path path = clang::file_name(file);
      if (path.is_relative()) path = directory / path;
      it->second.path = path.lexically_normal();
      if (wanted(it->second.path)) {
        std::size_t size = 0;
        const char* bytes = clang_getFileContents(tu, file, &size);
        if (bytes) it->second.text = std::string_view(bytes, size);
      }
    }
    const File& f = it->second;
    if (f.text.empty() || end > f.text.size()) continue;
    visit(f.path, f.text.substr(begin, end - begin));
  }
  clang_disposeSourceRangeList(skipped);
}

namespace {

// Why libclang made no unit at all, by its error code: it says no more (its driver's own message goes to
// a stderr it was told to keep quiet).
std::string unparsed_message(CXErrorCode error) {
  const std::string code = " (libclang error " + std::to_string(static_cast<int>(error)) + ")";
  switch (error) {
    case CXError_Crashed:
      return "libclang crashed while parsing the file" + code;
    case CXError_InvalidArguments:
      return "libclang rejected the arguments of its compile command" + code;
    case CXError_ASTReadError:
      return "libclang's driver made no parse of the file from its compile command: an option it rejects, or "
             "a language it does not take the file for (a -x before the file names one)" +
             code;
    default:
      return "libclang could not parse the file" + code;
  }
}

}  // namespace

ParseResult parse_translation_unit(const clang::Index& index, const CompileCommand& command,
                                   const ParseOptions& options) {
  ParseResult result;
  UnitParse how;
  how.skip_preamble_bodies = options.skip_preamble_bodies;
  how.warm = options.warm;
  if (options.prefix) how.include_pch = options.prefix->prefix->pch;
  ParsedUnit parsed = parse_unit(index, command, options.resource_dir, how);
  if (options.prefix) {
    result.prefixed = parsed && !clang::first_error(parsed.tu.get());
    if (!result.prefixed) {
      parsed = ParsedUnit();  // disposed before the parse without the prefix
      how.include_pch.clear();
      parsed = parse_unit(index, command, options.resource_dir, how);
    }
  }
  const clang::TranslationUnit& tu = parsed.tu;
  if (!parsed) {
    result.failure = unparsed_message(parsed.error);
    return result;
  }
  if (options.on_input)
    for_each_input(tu.get(), command.directory, result.prefixed ? options.prefix : nullptr, options.on_input);
  if (options.on_include) for_each_include(tu.get(), command.directory, options.on_include);
  // A unit with errors is still analyzed: libclang keeps the AST of everything it could parse.
  collect_parse_errors(tu.get(), command.directory, result);
  TuFacts facts;
  facts.main_file = command.file;
  extraction::Extractor(tu.get(), facts, options, command).run();
  result.facts = std::move(facts);
  return result;
}

}  // namespace emberlint
