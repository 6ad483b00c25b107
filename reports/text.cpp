#include <algorithm>
#include <map>

#include "lint/project/parse_errors.hpp"
#include "lint/support/source_text.hpp"
#include "reports/report.hpp"

namespace emberlint {

namespace fs = std::filesystem;

std::string stale_entry_text(const BaselineEntry& e) {
  return e.code + " " + e.file + ":" + std::to_string(e.line) + ": " + sanitize_utf8(e.message) +
         " (run with --prune-baseline)";
}

std::string failure_message(const CheckResult& result, const Failure& f) {
  if (f.where.empty()) return f.message;
  return display_path(result, f.where) + ":" + std::to_string(f.line) + ":" + std::to_string(f.column) +
         ": " + f.message;
}

std::string configuration_suffix(const Diagnostic& d) {
  if (d.configurations.empty()) return {};
  return (d.configurations.size() == 1 ? " (configuration " : " (configurations ") +
         join_configurations(d.configurations) + ")";
}

std::string configuration_counts(const CheckResult& result) {
  std::string out;
  std::size_t named = 0;
  for (const auto& [name, units] : result.configuration_units) {
    if (!name.empty()) ++named;
  }
  out = std::to_string(named) + (named == 1 ? " configuration: " : " configurations: ");
  bool first = true;
  for (const auto& [name, units] : result.configuration_units) {
    if (name.empty()) continue;
    out += (first ? "" : ", ") + name + " " + std::to_string(units) + (units == 1 ? " unit" : " units");
    first = false;
  }
  if (auto it = result.configuration_units.find(""); it != result.configuration_units.end() && it->second)
    out += ", " + std::to_string(it->second) + (it->second == 1 ? " unit" : " units") + " in none";
  return out;
}

std::string partial_message(const CheckResult& result, const Failure& f) {
  return "analyzed partially (" + std::string(describe_parse_cause(f.cause)) +
         (f.expected ? ", expected" : "") + "): " + failure_message(result, f);
}

namespace {
const char* kBold = "\033[1m";
const char* kReset = "\033[0m";
const char* kGreen = "\033[1;32m";

const char* severity_color(Severity s) {
  switch (s) {
    case Severity::error:
      return "\033[1;31m";
    case Severity::warning:
      return "\033[1;35m";
    default:
      return "\033[1;36m";
  }
}

// Expands tabs so the caret lines up whatever the terminal's tab width.
std::string expand_tabs(std::string_view line, std::size_t limit, std::size_t* columns) {
  std::string out;
  for (std::size_t i = 0; i < line.size() && i < limit; ++i) {
    if (line[i] == '\t') {
      out.append(4 - out.size() % 4, ' ');
    } else {
      out += line[i];
    }
  }
  if (columns) *columns = out.size();
  return out;
}

// Display width of UTF-8 text: one column per code point.
std::size_t width(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// "Wrote 3 findings to FILE.", "2 known problems hidden by FILE.", "1 stale entry in FILE." ...
void render_baseline_summary(std::ostream& out, const BaselineOutcome& b) {
  auto count = [](std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  if (b.written) {
    out << "Wrote " << count(*b.written, "finding", "findings") << " to " << b.file << ".\n";
    return;
  }
  if (b.matched)
    out << count(b.matched, "known problem", "known problems") << " hidden by " << b.file << ".\n";
  if (b.pruned)
    out << "Pruned " << count(b.pruned, "stale entry", "stale entries") << " from " << b.file << ".\n";
  if (!b.stale.empty()) {
    out << count(b.stale.size(), "stale entry", "stale entries") << " in " << b.file
        << ": remove with --prune-baseline.\n";
  }
}

}  // namespace

void render_text(std::ostream& out, const CheckResult& result, const TextOptions& options) {
  std::map<fs::path, std::optional<SourceText>> sources;
  auto paint = [&](const char* color, const std::string& text) {
    return options.color ? std::string(color) + text + kReset : text;
  };
  std::size_t errors = 0, warnings = 0, infos = 0;
  for (const Diagnostic& d : result.diagnostics) {
    (d.severity == Severity::error ? errors : d.severity == Severity::warning ? warnings : infos)++;
    const std::string where =
        display_path(result, d.file) + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ":";
    out << paint(kBold, where) << " "
        << paint(severity_color(d.severity), std::string(to_string(d.severity)) + ":") << " "
        << paint(kBold,
                 sanitize_utf8(d.message) + configuration_suffix(d) + " [" + d.code + " " + d.name + "]")
        << "\n";
    auto notes = [&] {
      for (const auto& step : d.explanation)
        out << "  " << paint(kBold, "note:") << " " << sanitize_utf8(step) << "\n";
    };
    auto& src = sources[d.file];
    if (!src) src = SourceText::read(d.file);
    if (!src || d.line == 0) {
      notes();
      continue;
    }
    std::string_view line = src->line(d.line);
    std::size_t col = d.column > 0 ? d.column - 1 : 0;
    std::string shown = sanitize_utf8(expand_tabs(line, line.size(), nullptr));
    std::string before = sanitize_utf8(expand_tabs(line, col, nullptr));
    std::size_t len = 1;
    if (d.end_line == d.line && d.end_column > d.column) {
      std::string_view span = line.substr(std::min(col, line.size()), d.end_column - d.column);
      len = std::max<std::size_t>(1, width(sanitize_utf8(span)));
    }
    out << shown << "\n"
        << std::string(width(before), ' ') << paint(kGreen, std::string(1, '^').append(len - 1, '~')) << "\n";
    notes();
  }
  for (const Failure& f : result.failures) {
    out << paint(kBold, display_path(result, f.file) + ":") << " "
        << paint(severity_color(Severity::error), "error:")
        << " could not be analyzed: " << sanitize_utf8(failure_message(result, f))
        << (f.expected ? " (expected)" : "") << "\n";
  }
  // A partial unit's findings are above; an expected one is a note, an unexpected one fails the run.
  for (const Failure& f : result.partial) {
    out << paint(kBold, display_path(result, f.file) + ":") << " "
        << (f.expected ? paint(severity_color(Severity::info), "note:")
                       : paint(severity_color(Severity::warning), "warning:"))
        << " " << sanitize_utf8(partial_message(result, f)) << "\n";
  }
  if (result.baseline) {
    for (const BaselineEntry& e : result.baseline->stale) {
      out << paint(kBold, result.baseline->file + ":") << " stale baseline entry " << stale_entry_text(e)
          << "\n";
    }
  }
  if (options.quiet) return;
  if (result.fixed)
    out << "Fixed " << *result.fixed << (*result.fixed == 1 ? " problem" : " problems") << ".\n";
  if (result.baseline) render_baseline_summary(out, *result.baseline);
  std::size_t total = errors + warnings + infos;
  out << (total == 0 ? "No problems" : std::to_string(total) + (total == 1 ? " problem" : " problems"));
  if (total) {
    out << " (" << errors << (errors == 1 ? " error, " : " errors, ") << warnings
        << (warnings == 1 ? " warning" : " warnings") << (infos ? ", " + std::to_string(infos) + " info" : "")
        << ")";
  }
  out << " in " << result.files_analyzed << (result.files_analyzed == 1 ? " file" : " files");
  if (!result.configuration_units.empty()) out << " (" << configuration_counts(result) << ")";
  if (!result.failures.empty()) {
    out << "; " << result.failures.size() << (result.failures.size() == 1 ? " file" : " files")
        << " could not be analyzed";
  }
  if (!result.partial.empty()) {
    std::size_t expected = static_cast<std::size_t>(std::count_if(
        result.partial.begin(), result.partial.end(), [](const Failure& f) { return f.expected; }));
    out << "; " << result.partial.size() << (result.partial.size() == 1 ? " file" : " files")
        << " analyzed partially";
    if (expected) out << " (" << expected << " expected)";
  }
  out << ".\n";
}

namespace {

std::vector<Ranked> ranked(std::map<std::pair<std::string, std::string>, std::size_t> counts,
                           std::size_t limit) {
  std::vector<Ranked> out;
  for (const auto& [key, n] : counts) out.push_back({key.first, key.second, n});
  std::stable_sort(out.begin(), out.end(),
                   [](const Ranked& a, const Ranked& b) { return a.count > b.count; });
  if (out.size() > limit) out.resize(limit);
  return out;
}

}  // namespace

std::vector<Ranked> top_files(const CheckResult& result, std::size_t limit) {
  std::map<std::pair<std::string, std::string>, std::size_t> counts;
  for (const Diagnostic& d : result.diagnostics) ++counts[{display_path(result, d.file), ""}];
  return ranked(std::move(counts), limit);
}

std::vector<Ranked> top_symbols(const CheckResult& result, std::size_t limit) {
  std::map<std::pair<std::string, std::string>, std::size_t> counts;
  for (const Diagnostic& d : result.diagnostics) {
    if (!d.group.empty()) counts[{d.group, d.code}] += d.uses;
  }
  return ranked(std::move(counts), limit);
}

void render_statistics(std::ostream& out, const CheckResult& result) {
  std::map<std::string, std::pair<std::size_t, std::string>> counts;
  for (const Diagnostic& d : result.diagnostics) {
    auto& c = counts[d.code];
    ++c.first;
    c.second = d.name;
  }
  std::vector<std::pair<std::string, std::pair<std::size_t, std::string>>> rows(counts.begin(), counts.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](auto& a, auto& b) { return a.second.first > b.second.first; });
  for (const auto& [code, c] : rows) {
    std::string n = std::to_string(c.first);
    out << std::string(n.size() < 5 ? 5 - n.size() : 0, ' ') << n << "  " << code << "  " << c.second << "\n";
  }
  auto list = [&](const char* title, const std::vector<Ranked>& rows) {
    if (rows.empty()) return;
    out << title << "\n";
    for (const Ranked& r : rows) {
      std::string n = std::to_string(r.count);
      out << std::string(n.size() < 5 ? 5 - n.size() : 0, ' ') << n << "  "
          << (r.code.empty() ? "" : r.code + "  ") << sanitize_utf8(r.name) << "\n";
    }
  };
  list("files with the most findings:", top_files(result));
  list("symbols used most (EL101, EL104: uses):", top_symbols(result));
  if (const ParseCounts& p = result.parses; p.units + p.headers > 0) {
    out << "parses: " << p.units << (p.units == 1 ? " unit" : " units");
    if (p.prefixes > 0)
      out << " (" << p.prefixed_units << " with " << p.prefixes
          << (p.prefixes == 1 ? " shared prefix)" : " shared prefixes)");
    out << ", " << p.headers << (p.headers == 1 ? " header" : " headers") << " for their bodies ("
        << p.headers - p.headers_alone << " in " << p.batches << (p.batches == 1 ? " batch, " : " batches, ")
        << p.headers_alone << " alone)\n";
  }
  if (!result.configuration_units.empty()) out << configuration_counts(result) << "\n";
  if (const auto& cache = result.cache) {
    out << "cache: " << cache->hits << (cache->hits == 1 ? " hit, " : " hits, ") << cache->misses
        << (cache->misses == 1 ? " miss\n" : " misses\n");
  }
}

}  // namespace emberlint
