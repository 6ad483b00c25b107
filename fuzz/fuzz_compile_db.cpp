// Fuzz target: the compile-database reader. Each input is the text of a compile_commands.json: it is parsed
// (entries checked, commands split the way a shell would, flags cleaned for libclang), and every command is
// then used as a run uses it: the argv handed to libclang, and the command a file without an entry borrows.
// The input is also split as one command line.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_support.hpp"
#include "lint/compile/compile_db.hpp"
#include "lint/parse/parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace emberlint;
  const std::string text = fuzz::as_text(data, size);
  (void)split_command_line(text);
  std::vector<CompileCommand> commands;
  try {
    commands = parse_compile_database(text, "compile_commands.json");
  } catch (const CompileDatabaseError&) {
    return 0;  // the message says which entry is wrong and why: what a user sees
  }
  for (const auto& c : commands) (void)libclang_arguments(c, "/resource");
  for (const char* file : {"/src/a.hpp", "/src/lib/b.cpp", "relative.c", ""}) {
    (void)interpolate_command(commands, file);
  }
  return 0;
}
