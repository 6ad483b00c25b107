#include "lint/compile/compile_db.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "lint/libclang/clang.hpp"
#include "lint/support/glob.hpp"

namespace emberlint {

namespace fs = std::filesystem;

const std::vector<std::string>& header_extensions() {
  static const std::vector<std::string> ext = {".h",   ".hh",  ".hpp", ".hxx", ".h++",
                                               ".inl", ".ipp", ".tpp", ".tcc", ".cuh"};
  return ext;
}

const std::vector<std::string>& source_extensions() {
  static const std::vector<std::string> ext = {".cpp", ".cc", ".cxx", ".c++",  ".C",  ".c",
                                               ".cu",  ".m",  ".mm",  ".cppm", ".ixx"};
  return ext;
}

bool is_header_path(const fs::path& p) {
  const auto& ext = header_extensions();
  return std::find(ext.begin(), ext.end(), p.extension().string()) != ext.end();
}

bool is_source_path(const fs::path& p) {
  const auto& ext = source_extensions();
  return std::find(ext.begin(), ext.end(), p.extension().string()) != ext.end();
}

std::vector<std::string> split_command_line(const std::string& command) {
  std::vector<std::string> out;
  std::string cur;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < command.size(); ++i) {
    char c = command[i];
    if (quote == '\'') {
      if (c == '\'') {
        quote = 0;
      } else {
        cur += c;
      }
    } else if (quote == '"') {
      if (c == '"') {
        quote = 0;
      } else if (c == '\\' && i + 1 < command.size() &&
                 std::string("\"\\$`").find(command[i + 1]) != std::string::npos) {
        cur += command[++i];
      } else {
        cur += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < command.size()) {
      cur += command[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) out.push_back(cur), cur.clear(), in_word = false;
    } else {
      cur += c;
      in_word = true;
    }
  }
  if (in_word) out.push_back(cur);
  return out;
}

namespace {

// Flags kept with a separate argument ("-I dir") or joined ("-Idir").
const std::vector<std::string> kKeepWithArg = {
    "-I", "-isystem",  "-iquote",   "-idirafter", "-include", "-imacros",     "-D", "-U",
    "-x", "--sysroot", "-isysroot", "-target",    "-iprefix", "-iwithprefix", "-F"};
// Flags dropped together with their separate argument: outputs, dependency files, linker and assembler
// pass-through, GCC tuning parameters.
const std::set<std::string> kDropWithArg = {"-o",          "-MF",         "-MT",
                                            "-MQ",         "-MJ",         "--param",
                                            "-Xlinker",    "-Xassembler", "-Xpreprocessor",
                                            "-Xclang",     "-aux-info",   "-dumpbase",
                                            "-dumpdir",    "-auxbase",    "-auxbase-strip",
                                            "-L",          "-l",          "-T",
                                            "-u",          "-z",          "-arch",
                                            "-Xarch_host", "-Xcuda-ptxas"};
// -f flags that change the language clang parses; every other -f flag (optimization, codegen, GCC-only
// tuning such as -fno-tree-vectorize or -fconserve-stack) is dropped.
const std::vector<std::string> kKeepFPrefixes = {"-fexceptions",
                                                 "-fno-exceptions",
                                                 "-frtti",
                                                 "-fno-rtti",
                                                 "-fchar8_t",
                                                 "-fno-char8_t",
                                                 "-fsigned-char",
                                                 "-funsigned-char",
                                                 "-fms-extensions",
                                                 "-fopenmp",
                                                 "-fcoroutines",
                                                 "-fno-gnu-keywords",
                                                 "-fgnu-keywords",
                                                 "-fcxx-exceptions",
                                                 "-fno-cxx-exceptions",
                                                 "-fshort-wchar",
                                                 "-fpermissive",
                                                 "-fno-threadsafe-statics",
                                                 "-fsized-deallocation",
                                                 "-faligned-allocation",
                                                 "-fconcepts"};
// Language flags clang does not know (g++'s -fconcepts, -fcoroutines in C++20 mode): dropped after all.
const std::set<std::string> kGccOnlyKept = {"-fconcepts", "-fcoroutines", "-fpermissive", "-fgnu-keywords",
                                            "-fno-gnu-keywords"};

bool starts_with(const std::string& s, const std::string& p) {
  return s.compare(0, p.size(), p) == 0;
}

std::string driver_for(const std::string& compiler) {
  std::string base = fs::path(compiler).filename().string();
  // g++, c++, clang++, x86_64-linux-gnu-g++-12, icpx, ... : C++; gcc, cc, clang: C.
  if (base.find("++") != std::string::npos || base.find("icpx") != std::string::npos ||
      base.find("icpc") != std::string::npos || base.find("CC") != std::string::npos) {
    return "clang++";
  }
  return "clang";
}

// Flags of the original command that change the compiler's implicit defaults: its language standard, target,
// instruction set (the macros -march and -m<feature> define), sysroot and standard library folders.
bool driver_flag(const std::string& a) {
  static const std::vector<std::string> kPrefixes = {
      "-std=",  "--std=",  "--target=", "--sysroot=",   "-stdlib=",          "-march=",
      "-mcpu=", "-mtune=", "-mfpu=",    "-mfloat-abi=", "-msve-vector-bits="};
  for (const auto& p : kPrefixes) {
    if (starts_with(a, p)) return true;
  }
  if (a == "-nostdinc" || a == "-nostdinc++" || a == "-m32" || a == "-m64" || a == "-ansi" ||
      a == "-fopenmp" || a == "-pthread")
    return true;
  // -mavx2, -mno-avx512f, -mfma, -mf16c, ...: instruction set extensions.
  return starts_with(a, "-m") && a.size() > 2 && a.find('=') == std::string::npos &&
         std::all_of(a.begin() + 2, a.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.';
         });
}

}  // namespace

std::vector<std::string> language_arguments(const fs::path& file) {
  const std::string ext = file.extension().string();
  if (ext == ".m") return {"-x", "objective-c"};
  if (ext == ".mm") return {"-x", "objective-c++"};
  // The toolkit's headers define CUDA's keywords; without them, they are clang's attributes, and the built-in
  // variables (threadIdx, blockIdx, blockDim, gridDim, warpSize) come from clang's own header.
  if (ext == ".cu" || ext == ".cuh")
    return {"-x",
            "cuda",
            "--cuda-host-only",
            "-nocudainc",
            "-nocudalib",
            "-include",
            "__clang_cuda_builtin_vars.h",
            "-D__host__=__attribute__((host))",
            "-D__device__=__attribute__((device))",
            "-D__global__=__attribute__((global))",
            "-D__shared__=__attribute__((shared))",
            "-D__constant__=__attribute__((constant))",
            "-D__managed__=__attribute__((managed))",
            "-D__launch_bounds__(...)=__attribute__((launch_bounds(__VA_ARGS__)))"};
  return {};
}

CompileCommand clean_command(const std::vector<std::string>& argv, const fs::path& file,
                             const fs::path& directory) {
  CompileCommand cmd;
  cmd.file = file;
  cmd.directory = directory;
  // C++ unless a C file is compiled by a C compiler.
  cmd.driver = file.extension() == ".c" && !argv.empty() ? driver_for(argv[0]) : "clang++";
  if (file.extension() == ".m") cmd.driver = "clang";
  cmd.arguments = language_arguments(file);
  const bool language_fixed = !cmd.arguments.empty();
  if (!argv.empty()) cmd.compiler = argv[0];
  const std::string file_abs = file.string();
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (driver_flag(a)) cmd.driver_flags.push_back(a);
    if ((a == "-target" || a == "--sysroot" || a == "-isysroot") && i + 1 < argv.size()) {
      cmd.driver_flags.push_back(a);
      cmd.driver_flags.push_back(argv[i + 1]);
    }
    // nvcc's language switch ("-x cu") and its host-compiler pass-through: the language is the extension's.
    if (a == "-x" && language_fixed) {
      ++i;
      continue;
    }
    if (a == "-Xcompiler" || a == "-ccbin" || a == "--compiler-bindir" || a == "--options-file" ||
        a == "-gencode" || a == "--generate-code" || a == "-arch" || a == "-code") {
      ++i;
      continue;
    }
    // The input file itself, however the command spelled it.
    if (!a.empty() && a[0] != '-') {
      fs::path p(a);
      if (!p.is_absolute()) p = directory / p;
      if (p.lexically_normal().string() == file_abs) continue;
      if (is_source_path(p)) continue;  // another input: never parse two files at once
      continue;                         // stray positional (object files, libraries)
    }
    if (kDropWithArg.count(a)) {
      if (a == "-o" && i + 1 < argv.size()) cmd.output = argv[i + 1];
      ++i;
      continue;
    }
    bool kept = false;
    for (const auto& k : kKeepWithArg) {
      if (a == k) {
        if (i + 1 < argv.size()) {
          cmd.arguments.push_back(a);
          cmd.arguments.push_back(argv[++i]);
        }
        kept = true;
        break;
      }
      if (starts_with(a, k) && a.size() > k.size() && k != "-target" && k != "-x") {
        cmd.arguments.push_back(a);
        kept = true;
        break;
      }
    }
    if (kept) continue;
    if (starts_with(a, "-std=") || starts_with(a, "--std=") || starts_with(a, "--target=") ||
        starts_with(a, "-stdlib=") || starts_with(a, "--sysroot=") || a == "-nostdinc" ||
        a == "-nostdinc++" || a == "-m32" || a == "-m64" || a == "-pthread" || a == "-ansi" ||
        starts_with(a, "-fopenmp")) {
      cmd.arguments.push_back(a == "-ansi" ? "-std=c++98" : a);
      continue;
    }
    if (starts_with(a, "-f")) {
      for (const auto& k : kKeepFPrefixes) {
        if (a == k && !kGccOnlyKept.count(a)) {
          cmd.arguments.push_back(a);
          break;
        }
      }
      continue;
    }
    // Everything else is dropped: -c, -O*, -g*, -W*, -M*, -m<arch tuning>, GCC-only flags.
  }
  return cmd;
}

fs::path compile_database_path(const fs::path& build_dir) {
  std::error_code ec;
  return fs::is_directory(build_dir, ec) ? build_dir / "compile_commands.json" : build_dir;
}

std::vector<CompileCommand> load_compile_database(const fs::path& build_dir, std::size_t* entries) {
  std::error_code ec;
  const fs::path path = compile_database_path(build_dir);
  if (!fs::exists(build_dir, ec)) {
    throw CompileDatabaseError("-p " + build_dir.string() + ": no such folder");
  }
  if (!fs::is_regular_file(path, ec)) {
    throw CompileDatabaseError(
        "-p " + build_dir.string() + ": no compile_commands.json in this folder; configure the " +
        "build with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or omit -p to use the config's " + "compile_flags");
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in || in.bad()) throw CompileDatabaseError(path.string() + ": cannot read the compile database");
  return parse_compile_database(text.str(), path.string(), entries);
}

std::vector<CompileCommand> parse_compile_database(std::string_view text, const std::string& origin,
                                                   std::size_t* entries) {
  nlohmann::json db;
  try {
    db = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw CompileDatabaseError(origin + ": not a valid compile database: " + e.what());
  }
  if (!db.is_array()) throw CompileDatabaseError(origin + ": expected a JSON array of compile commands");
  if (entries) *entries = db.size();
  // A file compiled several times (once per backend, with other defines) keeps each distinct command, in
  // the database's order; an exact repeat (the same file in two targets with the same flags) is one.
  std::map<fs::path, std::vector<CompileCommand>> by_file;
  for (std::size_t i = 0; i < db.size(); ++i) {
    const auto& e = db[i];
    auto where = origin + ": entry " + std::to_string(i);
    if (!e.is_object() || !e.contains("file") || !e["file"].is_string() || !e.contains("directory") ||
        !e["directory"].is_string()) {
      throw CompileDatabaseError(where + ": expected an object with string \"directory\" and \"file\"");
    }
    fs::path dir = e["directory"].get<std::string>();
    fs::path file = e["file"].get<std::string>();
    if (!file.is_absolute()) file = dir / file;
    file = canonical_path(file);  // never empty, so it cannot take the place of every other such entry
    std::vector<std::string> argv;
    if (e.contains("arguments") && e["arguments"].is_array()) {
      for (const auto& a : e["arguments"]) argv.push_back(a.is_string() ? a.get<std::string>() : "");
    } else if (e.contains("command") && e["command"].is_string()) {
      argv = split_command_line(e["command"].get<std::string>());
    } else {
      throw CompileDatabaseError(where + ": expected \"arguments\" (array) or \"command\" (string)");
    }
    CompileCommand c = clean_command(argv, file, dir);
    if (e.contains("output") && e["output"].is_string()) c.output = e["output"].get<std::string>();
    auto& same_file = by_file[file];
    bool repeat = std::any_of(same_file.begin(), same_file.end(), [&](const CompileCommand& o) {
      return o.directory == c.directory && o.arguments == c.arguments && o.driver == c.driver;
    });
    if (!repeat) same_file.push_back(std::move(c));
  }
  std::vector<CompileCommand> out;
  for (auto& [f, commands] : by_file) {
    for (auto& c : commands) out.push_back(std::move(c));
  }
  return out;
}

namespace {

// What a file is compiled as, by its extension; empty for a `.h` header, which may be C, C++ or
// Objective-C (it takes its neighbour's). Every other header extension is C++'s, `.cuh` CUDA's.
std::string source_language(const fs::path& p) {
  const std::string ext = p.extension().string();
  if (ext == ".h") return {};
  if (ext == ".c") return "c";
  if (ext == ".m") return "objective-c";
  if (ext == ".mm") return "objective-c++";
  if (ext == ".cu" || ext == ".cuh") return "cuda";
  return "c++";
}

}  // namespace

const CompileCommand* nearest_command(const std::vector<CompileCommand>& commands, const fs::path& file) {
  const CompileCommand* best = nullptr;
  std::size_t best_score = 0;
  const std::string target = file.parent_path().generic_string();
  const std::string language = source_language(file);
  for (const auto& c : commands) {
    const std::string dir = c.file.parent_path().generic_string();
    std::size_t n = 0;
    while (n < dir.size() && n < target.size() && dir[n] == target[n]) ++n;
    const bool same_language = language.empty() || source_language(c.file) == language;
    std::size_t score = n * 2 + (c.file.stem() == file.stem() ? 2000000 : 0) + (same_language ? 1000000 : 0) +
                        (is_source_path(c.file) ? 1 : 0);
    if (!best || score > best_score) best = &c, best_score = score;
  }
  return best;
}

std::optional<CompileCommand> interpolate_command(const std::vector<CompileCommand>& commands,
                                                  const fs::path& file) {
  const CompileCommand* best = nearest_command(commands, file);
  if (!best) return std::nullopt;
  CompileCommand out = *best;
  out.file = file;
  const std::string language = source_language(file);
  if (!language.empty() && language != source_language(best->file)) {
    auto drop_language = [](std::vector<std::string>& args) {
      std::vector<std::string> kept;
      for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i].rfind("-std=", 0) == 0 || (args[i].rfind("-x", 0) == 0 && args[i].size() > 2)) continue;
        if (args[i] == "-x") {
          ++i;
          continue;
        }
        kept.push_back(args[i]);
      }
      args = std::move(kept);
    };
    // The donor's own language arguments (clean_command puts them first): CUDA's modes, macros and include.
    const std::vector<std::string> donor = language_arguments(best->file);
    if (!donor.empty() && out.arguments.size() >= donor.size() &&
        std::equal(donor.begin(), donor.end(), out.arguments.begin()))
      out.arguments.erase(out.arguments.begin(),
                          out.arguments.begin() + static_cast<std::ptrdiff_t>(donor.size()));
    drop_language(out.arguments);
    drop_language(out.driver_flags);
    std::vector<std::string> own = language_arguments(file);
    out.arguments.insert(out.arguments.begin(), own.begin(), own.end());
    out.driver = language == "c" || language == "objective-c" ? "clang" : "clang++";
  }
  return out;
}

#ifndef EMBERLINT_CONFIGURED_RESOURCE_DIR
#define EMBERLINT_CONFIGURED_RESOURCE_DIR ""
#endif

std::string find_resource_dir() {
  auto usable = [](const fs::path& dir) {
    std::error_code ec;
    return !dir.empty() && fs::exists(dir / "include" / "stddef.h", ec);
  };
  if (const char* env = std::getenv("EMBERLINT_RESOURCE_DIR"); env && usable(env)) return env;

  // "Debian clang version 14.0.6" -> "14.0.6" and "14".
  std::string version = clang::version();
  std::string number;
  for (std::size_t i = 0; i < version.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(version[i])) && (i == 0 || version[i - 1] == ' ')) {
      std::size_t j = i;
      while (j < version.size() &&
             (std::isdigit(static_cast<unsigned char>(version[j])) || version[j] == '.'))
        ++j;
      number = version.substr(i, j - i);
      break;
    }
  }
  std::string major = number.substr(0, number.find('.'));

  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&clang_createIndex), &info) && info.dli_fname) {
    std::error_code ec;
    fs::path lib = fs::canonical(info.dli_fname, ec);
    std::vector<fs::path> candidates;
    for (fs::path dir : {fs::path(info.dli_fname).parent_path(), lib.parent_path()}) {
      candidates.push_back(dir / "clang" / number);
      candidates.push_back(dir / "clang" / major);
      candidates.push_back(dir / ".." / "lib" / "clang" / number);
      // Debian keeps the real tree in /usr/lib/llvm-<major>/lib, next to the multiarch folder.
      candidates.push_back(dir / ".." / ("llvm-" + major) / "lib" / "clang" / number);
      candidates.push_back(dir / ".." / ".." / ("llvm-" + major) / "lib" / "clang" / number);
    }
    for (const auto& c : candidates) {
      if (usable(c)) return fs::weakly_canonical(c, ec).string();
    }
  }
  if (usable(EMBERLINT_CONFIGURED_RESOURCE_DIR)) return EMBERLINT_CONFIGURED_RESOURCE_DIR;
  for (const std::string& exe : {"clang-" + major, std::string("clang")}) {
    std::string cmd = exe + " -print-resource-dir 2>/dev/null";
    if (FILE* p = popen(cmd.c_str(), "r")) {
      std::array<char, 4096> buf{};
      std::string out;
      while (fgets(buf.data(), buf.size(), p)) out += buf.data();
      pclose(p);
      while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
      if (usable(out)) return out;
    }
  }
  return {};
}

}  // namespace emberlint
