// `emberlint merge`: joins the JSON or SARIF reports of the shards of one run (`check --shard K/N`) into the
// report the unsharded run writes. JSON: files_analyzed summed, diagnostics and failures merged, sorted and
// deduplicated (a header's finding is seen by the shards of every unit that includes it). SARIF: one run
// whose rules are the union of the inputs', results in the unsharded order with fingerprint occurrence
// indexes counted again, and the invocations' notifications merged. Shard reports carry K/N (JSON "shard",
// SARIF runs[].properties.shard): each shard must be merged once, and the missing ones are reported.
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

struct MergeResult {
  std::string text;  // the merged report
  // The shards of the run (`check --shard K/N` writes K/N into its reports) that no input is: "2/3".
  std::vector<std::string> missing_shards;
};

// The merged report. `format` is "json", "sarif" or empty (the inputs' format). Throws MergeError for input
// that is not JSON, not emberlint's, of mixed formats or versions, or malformed; for a shard given twice (two
// files both K/N, or one file named twice), shards of runs split in different numbers of parts, a whole run's
// report among shards, or the same report twice.
MergeResult merge_reports(const std::vector<MergeInput>& inputs, const std::string& format);

// Reads the files, merges them and writes the result to `output` (atomically; empty: `out`). Errors go to
// `err`. Returns the exit code: 0; 2 for a file that cannot be read, merged or written; 3 when shards are
// missing (the merged report of the others is written, and says which are missing).
int merge_report_files(const std::vector<std::string>& files, const std::string& format,
                       const std::string& output, std::ostream& out, std::ostream& err);

}  // namespace emberlint
