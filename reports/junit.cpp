// The JUnit XML report: one testsuite whose testcases are the rules the command ran (one per rule, named
// "EL200 tensor-operator", classname "emberlint.<family>") plus one per file that could not be analyzed.
// A rule with findings at a failing severity (warning, error) has one <failure> listing them, clang style
// (with the configurations each holds in, and the units per configuration as a property of the suite); a rule
// with only info findings passes and lists them in <system-out>; a file that could not be analyzed is an
// <error>. The counts on <testsuites> and <testsuite> agree with the testcases.
#include <map>
#include <set>
#include <sstream>

#include "lint/findings/rule.hpp"
#include "lint/support/source_text.hpp"
#include "reports/report.hpp"
#include "rules/registry.hpp"

namespace emberlint {

namespace {

// XML 1.0 text: & < > (and " in attributes) as entities, line breaks kept in text and encoded in attributes,
// and the control characters XML cannot carry at all replaced by U+FFFD.
std::string xml_escape(std::string_view raw, bool attribute) {
  // Entities for the characters that need one; in attributes also " and the blanks a parser would normalize.
  auto entity = [attribute](char c) -> const char* {
    if (c == '&') return "&amp;";
    if (c == '<') return "&lt;";
    if (c == '>') return "&gt;";
    if (c == '\r') return "&#13;";
    if (!attribute) return nullptr;
    return c == '"' ? "&quot;" : c == '\n' ? "&#10;" : c == '\t' ? "&#9;" : nullptr;
  };
  std::string out;
  for (char c : sanitize_utf8(raw)) {
    if (const char* e = entity(c)) {
      out += e;
    } else if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') {
      out += "\xEF\xBF\xBD";
    } else {
      out += c;
    }
  }
  return out;
}

struct Case {
  std::string name, classname;
  std::string kind;  // "", "failure", "error"
  std::string message, type, body, output;
};

std::string finding_line(const CheckResult& result, const Diagnostic& d) {
  return display_path(result, d.file) + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " +
         std::string(to_string(d.severity)) + ": " + d.message + configuration_suffix(d) + "\n";
}

Case rule_case(const CheckResult& result, const std::string& code, const std::string& name,
               const std::string& family, const std::vector<const Diagnostic*>& found) {
  Case c;
  c.name = code + " " + name;
  c.classname = "emberlint." + family;
  std::string failing, info;
  Severity worst = Severity::info;
  for (const Diagnostic* d : found) {
    (fails(d->severity) ? failing : info) += finding_line(result, *d);
    if (d->severity > worst) worst = d->severity;
  }
  if (!failing.empty()) {
    std::size_t n = found.size();
    c.kind = "failure";
    c.message = std::to_string(n) + (n == 1 ? " finding" : " findings");
    c.type = std::string(to_string(worst));
    c.body = failing + info;
  } else {
    c.output = info;
  }
  return c;
}

void print_case(std::ostream& out, const Case& c) {
  out << "    <testcase name=\"" << xml_escape(c.name, true) << "\" classname=\""
      << xml_escape(c.classname, true) << "\"";
  if (c.kind.empty() && c.output.empty()) {
    out << "/>\n";
    return;
  }
  out << ">\n";
  if (!c.kind.empty()) {
    out << "      <" << c.kind << " message=\"" << xml_escape(c.message, true) << "\" type=\""
        << xml_escape(c.type, true) << "\">" << xml_escape(c.body, false) << "</" << c.kind << ">\n";
  }
  if (!c.output.empty()) out << "      <system-out>" << xml_escape(c.output, false) << "</system-out>\n";
  out << "    </testcase>\n";
}

}  // namespace

void render_junit(std::ostream& out, const CheckResult& result, const JunitOptions& options) {
  std::vector<const RuleInfo*> rules = options.rules.empty() ? rule_infos() : options.rules;
  std::map<std::string, std::vector<const Diagnostic*>> by_code;
  for (const Diagnostic& d : result.diagnostics) by_code[d.code].push_back(&d);

  std::vector<Case> cases;
  std::set<std::string> listed;
  for (const RuleInfo* info : rules) {
    listed.insert(info->code);
    cases.push_back(rule_case(result, info->code, info->name, info->family, by_code[info->code]));
  }
  // Findings of a rule the list does not name are never dropped.
  for (const auto& [code, found] : by_code) {
    if (listed.count(code)) continue;
    const RuleInfo* info = find_rule(code);
    cases.push_back(
        rule_case(result, code, found.front()->name, info ? info->family : std::string("other"), found));
  }
  for (const Failure& f : result.failures) {
    Case c;
    c.name = display_path(result, f.file);
    c.classname = "emberlint.could-not-analyze";
    c.kind = "error";
    c.message = "could not be analyzed";
    c.type = "analysis-failure";
    c.body = failure_message(result, f) + "\n";
    if (f.expected) c.kind = "";  // the config expects it: a passing case that still names the error
    cases.push_back(std::move(c));
  }
  // A partial unit that the config does not expect fails its case; an expected one passes.
  for (const Failure& f : result.partial) {
    Case c;
    c.name = display_path(result, f.file);
    c.classname = "emberlint.analyzed-partially";
    c.kind = f.expected ? "" : "error";
    c.message = "analyzed partially";
    c.type = "analysis-partial";
    c.body = partial_message(result, f) + "\n";
    cases.push_back(std::move(c));
  }

  std::size_t failures = 0, errors = 0;
  for (const Case& c : cases) {
    failures += c.kind == "failure";
    errors += c.kind == "error";
  }
  std::ostringstream counts;
  counts << "tests=\"" << cases.size() << "\" failures=\"" << failures << "\" errors=\"" << errors << "\"";
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"emberlint\" " << counts.str() << ">\n"
      << "  <testsuite name=\"" << xml_escape(options.suite, true) << "\" " << counts.str()
      << " skipped=\"0\">\n"
      << "    <properties>\n"
      << "      <property name=\"emberlint.version\" value=\"" << kVersion << "\"/>\n"
      << "      <property name=\"files_analyzed\" value=\"" << result.files_analyzed << "\"/>\n";
  if (!result.configuration_units.empty()) {
    out << "      <property name=\"configurations\" value=\""
        << xml_escape(configuration_counts(result), true) << "\"/>\n";
  }
  out << "    </properties>\n";
  for (const Case& c : cases) print_case(out, c);
  out << "  </testsuite>\n</testsuites>\n";
}

}  // namespace emberlint
