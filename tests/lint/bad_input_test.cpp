// Every bad input the emberlint command line meets, one row each: what the row makes in a fresh copy of a
// small project, the arguments, the exit code (2 usage or configuration, 3 an input that cannot be analyzed)
// and the fragments stdout + stderr must contain: the message names the flag, file or value at fault. A new
// bad input is one new row. (cli_test.cpp checks some of them in more detail.)
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <functional>
#include <thread>

#include "tests/support/spawn.hpp"
#include "tests/support/test_support.hpp"

namespace fs = std::filesystem;
using emberlint::test::write_file;

namespace {

// examples/legacy: a project whose .emberlint.json has an ops_interface with a migration section.
const fs::path kLegacy =
    fs::path(EMBERLINT_FIXTURES).parent_path().parent_path().parent_path() / "examples/legacy";
constexpr int kHugeFillerLines = 640000;  // ~54 MB of comment

struct Row {
  std::string name;
  std::function<void(const fs::path&)> make;  // the bad input, in the project
  std::vector<std::string> args;
  int exit_code;
  std::vector<std::string> fragments;
  // Runs while emberlint does (in a thread), e.g. to remove a file mid-run.
  // Runs beside emberlint; `ended` is set once emberlint has exited.
  std::function<void(const fs::path&, const std::atomic<bool>& ended)> meanwhile = nullptr;
  bool as_nobody = false;  // run as an unprivileged user (root reads every file)
};

void nothing(const fs::path&) {}

void database(const fs::path& root, const std::string& text) {
  write_file(root / "build/compile_commands.json", text);
}

void config(const fs::path& root, const std::string& text) {
  write_file(root / ".emberlint.json", text);
}

void legacy(const fs::path& root) {
  fs::remove_all(root);
  fs::copy(kLegacy, root, fs::copy_options::recursive);
  fs::remove_all(root / "build");
}

// 200 sources, old enough for the result cache to store them; `meanwhile` removes the last one once the
// first result is stored, so it vanishes after it was listed and before it is parsed.
void many_sources(const fs::path& root) {
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (int i = 0; i < 200; ++i) {
    std::string name = "f";  // appended piece by piece: GCC 12 misreads `"f" + std::string&&` (-Wrestrict)
    name += std::to_string(1000 + i);
    name += ".cpp";
    const fs::path f = root / "frontend" / name;
    write_file(f, "int f" + std::to_string(i) + "(int n) { return n + 1; }\n");
    fs::last_write_time(f, old);
  }
}
void remove_last_source_after_the_first_result(const fs::path& root, const std::atomic<bool>& ended) {
  for (bool stored = false; !stored && !ended;) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(root / ".cache", ec))
      stored = stored || e.path().extension() == ".entry";
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  fs::remove(root / "frontend/f1199.cpp");
}

std::vector<Row> make_rows() {
  const std::string root_db_entry =
      R"([{"directory": ".", "file": "frontend/gone.cpp", "command": "c++ -c frontend/gone.cpp"}])";
  return {
      // The command line.
      {"unknown_flag", nothing, {"check", "--bogus"}, 2, {"--bogus", "emberlint --help"}},
      {"unknown_subcommand", nothing, {"chek"}, 2, {"'chek' is neither a command", "nor a file or folder"}},
      {"unknown_rule_in_select",
       nothing,
       {"check", "--select", "EL999"},
       2,
       {"--select: unknown rule 'EL999'"}},
      {"unknown_rule_in_ignore",
       nothing,
       {"check", "--ignore", "nope"},
       2,
       {"--ignore: unknown rule 'nope'"}},
      {"unknown_rule_explained", nothing, {"rule", "EL999"}, 2, {"unknown rule 'EL999'"}},
      {"bad_format", nothing, {"check", "--format", "yaml"}, 2, {"--format: yaml not in"}},
      {"negative_jobs",
       nothing,
       {"check", "-j", "-1"},
       2,
       {"--jobs: expected 0 (all cores) or a number of jobs, got '-1'"}},
      {"jobs_not_a_number", nothing, {"check", "-j", "many"}, 2, {"--jobs", "got 'many'"}},
      {"option_without_value", nothing, {"check", "--extra-arg"}, 2, {"--extra-arg"}},
      {"bad_shard", nothing, {"check", "--shard", "3/2"}, 2, {"--shard: '3/2': expected K/N"}},
      {"diff_outside_git", nothing, {"check", "--diff", "main"}, 2, {"--diff:", "is not in a git work tree"}},
      {"missing_path",
       nothing,
       {"check", "frontend/missing.cpp"},
       2,
       {"frontend/missing.cpp: no such file or folder"}},
      {"missing_config_file",
       nothing,
       {"check", "--config", "nope.json"},
       2,
       {"--config nope.json: no such file"}},
      // Compile databases.
      {"missing_build_folder", nothing, {"check", "-p", "nowhere"}, 2, {"-p nowhere: no such folder"}},
      {"build_folder_without_database",
       [](const fs::path& r) { fs::create_directories(r / "build"); },
       {"check", "-p", "build"},
       2,
       {"no compile_commands.json"}},
      {"malformed_database",
       [](const fs::path& r) { database(r, "{["); },
       {"check", "-p", "build"},
       2,
       {"build/compile_commands.json: not a valid compile database", "parse error"}},
      {"database_entry_of_wrong_shape",
       [](const fs::path& r) { database(r, R"([{"file": 5}])"); },
       {"check", "-p", "build"},
       2,
       {"build/compile_commands.json: entry 0: expected an object"}},
      {"database_entry_for_a_missing_file",
       [=](const fs::path& r) { database(r, root_db_entry); },
       {"check", "-p", "build"},
       3,
       {"frontend/gone.cpp: error: could not be analyzed: no such file"}},
      // .emberlint.json.
      {"config_syntax_error",
       [](const fs::path& r) { config(r, "{\n  \"layers\": {\n    \"frontend\": [\"f/**\",]\n  }\n}\n"); },
       {"check"},
       2,
       {".emberlint.json:3:", "invalid JSON"}},
      {"config_unknown_key",
       [](const fs::path& r) { config(r, R"({"layers": {}, "excludes": []})"); },
       {"check"},
       2,
       {".emberlint.json: $: unknown key 'excludes' (did you mean 'exclude'?)"}},
      {"config_wrong_type",
       [](const fs::path& r) { config(r, R"({"layers": {"frontend": 5}})"); },
       {"check"},
       2,
       {".emberlint.json: layers.frontend: expected an array of strings, found a number"}},
      {"config_bad_glob",
       [](const fs::path& r) { config(r, R"({"layers": {"frontend": ["frontend/[abc"]}})"); },
       {"check"},
       2,
       {"layers.frontend[0]: bad glob 'frontend/[abc': unclosed '['"}},
      // Sources.
      {"unparsable_source",
       [](const fs::path& r) { write_file(r / "frontend/broken.cpp", "int broken( {\n"); },
       {"check"},
       3,
       {"frontend/broken.cpp: warning: analyzed partially (other error): frontend/broken.cpp:1:",
        "No problems in 3 files; 1 file analyzed partially."}},
      {"non_utf8_source",
       [](const fs::path& r) {
         write_file(r / "frontend/latin1.cpp", "#include <Eigen/Core>\nEigen::MatrixXd m;  // caf\xE9\n");
       },
       {"check"},
       1,
       {"frontend/latin1.cpp:2:", "caf\xEF\xBF\xBD"}},
      {"huge_source",
       [](const fs::path& r) {
         std::ofstream out(r / "frontend/huge.cpp", std::ios::binary);
         out << "#include <Eigen/Core>\n/*\n";
         for (int i = 0; i < kHugeFillerLines; ++i)
           out << "generated filler line " << i << ", one of many in one long comment that the lexer skips\n";
         out << "*/\nEigen::MatrixXd last;\n";
       },
       {"check", "--select", "EL101"},
       1,
       {"frontend/huge.cpp:" + std::to_string(kHugeFillerLines + 4) + ":8: warning"}},
      // An operator on a tensor in a file whose text emberlint does not read (outside the project: generated
      // into the build folder and included in a function body) once aborted the run (std::out_of_range).
      {"operator_in_generated_body",
       [](const fs::path& r) {
         config(r, R"({
           "layers": {"frontend": ["frontend/**"], "backends": {"eigen": ["backends/eigen/**"]}},
           "libraries": {"Eigen": {"backend": "eigen", "headers": ["Eigen/**"], "namespaces": ["Eigen"]}},
           "tensor_types": ["Vec"],
           "exclude": ["build/**"], "compile_flags": ["-std=c++20", "-isystem", "vendor"]})");
         write_file(
             r / "frontend/vec.hpp",
             "#pragma once\nstruct Vec { float x; };\ninline Vec operator+(Vec a, Vec b) { return {a.x + "
             "b.x}; }\n");
         write_file(r / "frontend/generated.cpp",
                    "#include \"vec.hpp\"\nVec twice(Vec a) {\n#include \"../build/gen/body.inc\"\n}\n");
         write_file(r / "build/gen/body.inc", "// written by the build\n\n\n\n\n\n\n  return a + a;\n");
       },
       {"check"},
       0,
       {"No problems in 4 files."}},
      {"empty_source",
       [](const fs::path& r) { write_file(r / "frontend/empty.cpp", ""); },
       {"check"},
       0,
       {"No problems in 3 files."}},
      {"binary_file_named_cpp",
       [](const fs::path& r) {
         std::string bytes;
         for (int i = 0; i < 4096; ++i) bytes += static_cast<char>((i * 131 + 7) % 256);
         write_file(r / "frontend/blob.cpp", bytes);
       },
       {"check"},
       3,
       {"frontend/blob.cpp: warning: analyzed partially (other error): frontend/blob.cpp:1:1: error:"}},
      {"unreadable_source",
       [](const fs::path& r) {
         write_file(r / "frontend/secret.cpp", "int secret;\n");
         fs::permissions(r / "frontend/secret.cpp", fs::perms::none);
       },
       {"check", "--no-cache"},
       3,
       {"frontend/secret.cpp: error: could not be analyzed: cannot read it: Permission denied"},
       nullptr,
       true},
      {"folder_named_like_a_source",
       [](const fs::path& r) { fs::create_directories(r / "frontend/dir.cpp"); },
       {"check"},
       0,
       {"No problems in 2 files."}},
      {"source_removed_mid_run",
       many_sources,
       {"check", "-j", "1", "--cache-dir", ".cache"},
       3,
       {"frontend/f1199.cpp: error: could not be analyzed: no such file"},
       remove_last_source_after_the_first_result},
      // Outputs.
      {"output_into_a_missing_folder",
       nothing,
       {"check", "-o", "nofolder/report.txt"},
       2,
       {"-o nofolder/report.txt: cannot write this file: no such folder 'nofolder'"}},
      {"output_is_a_folder",
       nothing,
       {"check", "-o", "frontend"},
       2,
       {"-o frontend: cannot write this file: it is a folder"}},
      {"export_fixes_below_a_file",
       [](const fs::path& r) { write_file(r / "afile", "x"); },
       {"check", "--export-fixes", "afile/fixes.yaml"},
       2,
       {"--export-fixes afile/fixes.yaml: cannot write this file: 'afile' is not a folder"}},
      {"export_fixes_into_a_read_only_folder",
       [](const fs::path& r) {
         fs::create_directories(r / "ro");
         fs::permissions(r / "ro", fs::perms::owner_read | fs::perms::owner_exec | fs::perms::others_read |
                                       fs::perms::others_exec);
       },
       {"check", "--no-cache", "--export-fixes", "ro/fixes.yaml"},
       2,
       {"--export-fixes ro/fixes.yaml: cannot write this file: ro: Permission denied"},
       nullptr,
       true},
      {"write_baseline_into_a_missing_folder",
       nothing,
       {"check", "--write-baseline", "nofolder/b.json"},
       2,
       {"--write-baseline nofolder/b.json: no such folder"}},
      {"baseline_missing",
       nothing,
       {"check", "--baseline", "missing.json"},
       2,
       {"missing.json: no such baseline file"}},
      {"baseline_malformed",
       [](const fs::path& r) { write_file(r / "b.json", "{"); },
       {"check", "--baseline", "b.json"},
       2,
       {"b.json:", "not a baseline: invalid JSON"}},
      {"cache_dir_is_a_file",
       [](const fs::path& r) { write_file(r / "cfile", "x"); },
       {"check", "--cache-dir", "cfile"},
       0,
       {"warning: running without the result cache:",
        "cfile: cannot create the cache folder: Not a directory"}},
      {"init_over_an_existing_config", nothing, {"init"}, 2, {".emberlint.json already exists; use --force"}},
      {"merge_a_missing_report", nothing, {"merge", "nope.json"}, 2, {"nope.json: cannot read this file"}},
      // analyze.
      // A config that states no inventory: analyze says so and exits 0 (docs/inventory.md#running-it); a
      // migration needs the interface.
      {"analyze_without_ops_interface",
       nothing,
       {"analyze", "-o", "inventory.json"},
       0,
       {"nothing to inventory, no report written:", ".emberlint.json: no \"ops_interface\" section",
        "docs/inventory.md#the-models"}},
      {"migrate_without_ops_interface",
       nothing,
       {"analyze", "--migrate", "--backend", "all", "--dry-run"},
       2,
       {".emberlint.json: no \"ops_interface\" section"}},
      {"analyze_negative_jobs", nothing, {"analyze", "-j", "-3"}, 2, {"--jobs: expected 0 (all cores)"}},
      {"analyze_output_into_a_missing_folder",
       nothing,
       {"analyze", "-o", "no/x.html"},
       2,
       {"-o no/x.html: cannot write this file: no such folder 'no'"}},
      {"migrate_without_backend",
       legacy,
       {"analyze", "--migrate", "--dry-run"},
       2,
       {"--migrate needs --backend NAME|all"}},
      {"migrate_without_dry_run_or_apply",
       legacy,
       {"analyze", "--migrate", "--backend", "all"},
       2,
       {"--migrate needs --dry-run or --apply"}},
      {"migrate_apply_and_dry_run",
       legacy,
       {"analyze", "--migrate", "--backend", "all", "--apply", "--dry-run"},
       2,
       {"--dry-run excludes --apply"}},
      {"backend_without_migrate",
       legacy,
       {"analyze", "--backend", "eigen"},
       2,
       {"--backend requires --migrate"}},
      {"migrate_unknown_backend",
       legacy,
       {"analyze", "--migrate", "--backend", "cuda", "--dry-run"},
       2,
       {"--backend cuda: not a backend in layers.backends"}},
      {"migration_journal_unreadable",
       [](const fs::path& r) {
         legacy(r);
         write_file(r / ".emberlint-migration.json", "{");
       },
       {"analyze"},
       2,
       {".emberlint-migration.json: not a valid migration journal", "restore the tree"}},
  };
}

const std::vector<Row>& rows() {
  static const std::vector<Row> table = make_rows();
  return table;
}

class BadInput : public ::testing::TestWithParam<std::size_t> {};

TEST_P(BadInput, ClearMessageAndExitCode) {
  const Row& row = rows()[GetParam()];
  // A fresh copy of a small project: a frontend, an Eigen backend, a stand-in Eigen.
  const fs::path root =
      fs::temp_directory_path() / ("emberlint_bad_input_" + std::to_string(::getpid()) + "_" + row.name);
  fs::remove_all(root);
  fs::create_directories(root);
  config(root, R"({
    "layers": {"frontend": ["frontend/**"], "backends": {"eigen": ["backends/eigen/**"]}},
    "libraries": {"Eigen": {"backend": "eigen", "headers": ["Eigen/**"], "namespaces": ["Eigen"]}},
    "exclude": ["build/**"], "compile_flags": ["-std=c++20", "-isystem", "vendor"]})");
  write_file(root / "vendor/Eigen/Core",
             "#pragma once\nnamespace Eigen { struct MatrixXd { long rows() const; }; }\n");
  write_file(root / "backends/eigen/ops.cpp",
             "#include <Eigen/Core>\nlong f() { return Eigen::MatrixXd().rows(); }\n");
  write_file(root / "frontend/clean.cpp", "int twice(int n) { return n * 2 - 1; }\n");
  row.make(root);

  emberlint::test::Spawn spawn;
  spawn.args = row.args;
  spawn.folder = root;
  spawn.env = {{"XDG_CACHE_HOME", (root / ".xdg-cache").string()}};
  spawn.timeout = std::nullopt;  // waited for to its exit: the huge source takes what a busy machine makes it
  if (row.as_nobody && ::geteuid() == 0) {
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      if (e.is_directory() && e.path().filename() != "ro") fs::permissions(e.path(), fs::perms::all);
    }
    fs::permissions(root, fs::perms::all);
    spawn.user = 65534;  // nobody
  }
  std::thread meanwhile;
  std::atomic<bool> ended{false};
  if (row.meanwhile) meanwhile = std::thread(row.meanwhile, root, std::cref(ended));
  const emberlint::test::Ended e = emberlint::test::spawn_emberlint(spawn);
  ended = true;
  if (meanwhile.joinable()) meanwhile.join();
  if (spawn.user && e.exited && e.exit_code == emberlint::test::kUnreachableExe) {
    fs::remove_all(root);
    GTEST_SKIP() << row.name << ": user nobody cannot reach " << EMBERLINT_EXE
                 << " (a parent folder is private)";
  }

  ASSERT_TRUE(e.exited) << row.name << ": ended by signal " << e.signal << (e.timed_out ? " (timed out)" : "")
                        << "\n"
                        << e.err;
  EXPECT_EQ(e.exit_code, row.exit_code) << row.name << "\n" << e.out << e.err;
  const std::string all = e.out + e.err;
  for (const auto& fragment : row.fragments)
    EXPECT_NE(all.find(fragment), std::string::npos) << row.name << ": no \"" << fragment << "\" in\n" << all;
  fs::remove_all(root);
}

std::vector<std::size_t> row_indices() {
  std::vector<std::size_t> out(rows().size());
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = k;
  return out;
}

INSTANTIATE_TEST_SUITE_P(Cli, BadInput, ::testing::ValuesIn(row_indices()),
                         [](const ::testing::TestParamInfo<std::size_t>& info) {
                           return rows()[info.param].name;
                         });

}  // namespace
