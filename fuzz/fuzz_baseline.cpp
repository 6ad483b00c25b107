// Fuzz target: the baseline reader. Each input is a baseline file's text. One that parses must survive a
// round trip: written back (sorted, deterministic) it parses to the same entries and is written the same
// way again; and matched against findings with exactly its fingerprints, every entry matches one of them.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <tuple>

#include "fuzz/fuzz_support.hpp"
#include "lint/run/baseline.hpp"

namespace {

using namespace emberlint;

[[noreturn]] void broken(const char* what) {
  std::fprintf(stderr, "fuzz_baseline: invariant broken: %s\n", what);
  std::abort();
}

std::vector<std::tuple<std::string, std::string, std::string, unsigned, std::string>> sorted(
    const Baseline& b) {
  std::vector<std::tuple<std::string, std::string, std::string, unsigned, std::string>> out;
  for (const auto& e : b.entries) out.emplace_back(e.fingerprint, e.code, e.file, e.line, e.message);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Baseline baseline;
  try {
    baseline = parse_baseline(fuzz::as_text(data, size), "baseline.json");
  } catch (const BaselineError&) {
    return 0;  // the message names the file and the JSON path: what a user sees
  }
  const std::string written = baseline_json(baseline);
  Baseline again;
  try {
    again = parse_baseline(written, "written.json");
  } catch (const BaselineError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    broken("a written baseline does not parse");
  }
  if (again.version != baseline.version || sorted(again) != sorted(baseline))
    broken("a written baseline parses to other entries");
  if (baseline_json(again) != written) broken("writing a baseline twice gives two texts");

  std::vector<std::string> prints;
  for (const auto& e : baseline.entries) prints.push_back(e.fingerprint);
  BaselineMatch m = match_baseline(baseline.entries, prints, std::vector<bool>(prints.size(), true));
  if (m.matched != prints.size() || !m.fresh.empty() || !m.stale.empty())
    broken("a baseline does not match the findings it records");
  return 0;
}
