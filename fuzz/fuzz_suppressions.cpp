// Fuzz target: the suppression-comment parser. Each input is a source file's text: its comments are found
// (string, character and raw string literals skipped), its suppressions parsed and paired, and every one is
// asked whether it covers a diagnostic of a few rules on each line. The results must stay in the file: a
// suppression is on a line of the text, and a comment lies within it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz/fuzz_support.hpp"
#include "lint/findings/suppressions.hpp"

namespace {

using namespace emberlint;

[[noreturn]] void broken(const char* what) {
  std::fprintf(stderr, "fuzz_suppressions: invariant broken: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const SourceText source(fuzz::as_text(data, size));
  for (const Comment& c : find_comments(source.text())) {
    if (c.offset + c.text.size() > source.text().size()) broken("a comment ends past the text");
    if (source.text().compare(c.offset, c.text.size(), c.text) != 0) broken("a comment is not the text");
  }
  std::vector<Suppression> suppressions = scan_suppressions(source);
  const unsigned lines = static_cast<unsigned>(source.line_count());
  Diagnostic d;
  d.file = "fuzz.cpp";
  for (const Suppression& s : suppressions) {
    if (s.line < 1 || s.line > lines) broken("a suppression is on no line of the text");
    for (const auto& [code, name] :
         {std::pair{"EL200", "tensor-operator"}, std::pair{"EL001", "unused-suppression"},
          std::pair{"EL101", "frontend-uses-backend-symbol"}}) {
      d.code = code;
      d.name = name;
      for (unsigned line = s.line > 1 ? s.line - 1 : 1; line <= s.line + 2; ++line) {
        d.line = line;
        (void)covers(s, d);
      }
      for (const auto& item : s.rules) (void)suppression_item_matches(item, code, name);
    }
  }
  return 0;
}
