// `emberlint merge`: joins the JSON or SARIF reports of the shards of one run (`check --shard K/N`) into the
// report the unsharded run writes. JSON: files_analyzed summed, diagnostics and failures merged, sorted and
// deduplicated (a header's finding is seen by the shards of every unit that includes it). SARIF: one run
// whose rules are the union of the inputs', results in the unsharded order with fingerprint occurrence
// indexes counted again, and the invocations' notifications merged.
#pragma once

#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

namespace emberlint {

// An input that cannot be merged: the message names the input and what is wrong (exit code 2).
struct MergeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct MergeInput {
  std::string name;  // shown in errors: the file name
  std::string text;
};

// The merged report's text. `format` is "json", "sarif" or empty (the inputs' format). Throws MergeError
// for input that is not JSON, not emberlint's, of mixed formats or versions, or malformed.
std::string merge_reports(const std::vector<MergeInput>& inputs, const std::string& format);

// Reads the files, merges them and writes the result to `output` (atomically; empty: `out`). Errors go to
// `err`. Returns the exit code: 0, or 2 for a file that cannot be read, merged or written.
int merge_report_files(const std::vector<std::string>& files, const std::string& format,
                       const std::string& output, std::ostream& out, std::ostream& err);

}  // namespace emberlint
