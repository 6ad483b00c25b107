// GitHub Actions workflow commands: `::warning file=F,line=L,col=C,endLine=L2,endColumn=C2,title=EL200
// tensor-operator::message (configurations cpu, opencl)`, one line per diagnostic (error, warning or notice
// by severity; the configurations it holds in when the config states `configurations`) and an ::error line
// per file that could not be analyzed. Values are escaped as the runner expects: % CR LF in the message, and
// also : and , in the properties.
#include "lint/support/source_text.hpp"
#include "reports/report.hpp"

namespace emberlint {

namespace {

// Percent-encodes the characters the runner decodes: % CR LF in data, and also : , in properties.
std::string escape(std::string_view text, bool property) {
  static const char* kHex = "0123456789ABCDEF";
  std::string_view special = property ? "%\r\n:," : "%\r\n";
  std::string out;
  for (char c : text) {
    if (special.find(c) == std::string_view::npos) {
      out += c;
      continue;
    }
    out += '%';
    out += kHex[static_cast<unsigned char>(c) >> 4];
    out += kHex[c & 15];
  }
  return out;
}

const char* command(Severity s) {
  return s == Severity::error ? "error" : s == Severity::warning ? "warning" : "notice";
}

struct Annotation {
  const char* command = "";
  std::string file;
  unsigned line = 0, column = 0, end_line = 0, end_column = 0;
  std::string title, message;
};

void print(std::ostream& out, const Annotation& a) {
  out << "::" << a.command << " file=" << escape(sanitize_utf8(a.file), true);
  if (a.line > 0) {
    out << ",line=" << a.line;
    if (a.column > 0) out << ",col=" << a.column;
    if (a.end_line >= a.line) out << ",endLine=" << a.end_line;
    bool span = a.end_line > a.line || (a.end_line == a.line && a.end_column > a.column);
    if (a.end_column > 0 && span) out << ",endColumn=" << a.end_column;
  }
  out << ",title=" << escape(sanitize_utf8(a.title), true) << "::" << escape(sanitize_utf8(a.message), false)
      << "\n";
}

}  // namespace

void render_github(std::ostream& out, const CheckResult& result) {
  for (const Diagnostic& d : result.diagnostics) {
    print(out, {command(d.severity), repository_path(result, d.file), d.line, d.column, d.end_line,
                d.end_column, d.code + " " + d.name, d.message + configuration_suffix(d)});
  }
  for (const Failure& f : result.failures) {
    Annotation a;
    a.command = "error";
    a.file = repository_path(result, f.where.empty() ? f.file : f.where);
    if (!f.where.empty()) {
      a.line = f.line;
      a.column = f.column;
    }
    a.title = "emberlint: could not analyze " + repository_path(result, f.file);
    a.message = failure_message(result, f);
    if (f.expected) a.command = "notice";
    print(out, a);
  }
  for (const Failure& f : result.partial) {
    Annotation a;
    a.command = f.expected ? "notice" : "warning";
    a.file = repository_path(result, f.where.empty() ? f.file : f.where);
    if (!f.where.empty()) {
      a.line = f.line;
      a.column = f.column;
    }
    a.title = "emberlint: analyzed " + repository_path(result, f.file) + " partially";
    a.message = partial_message(result, f);
    print(out, a);
  }
  // Stale baseline entries fail the run: an error on the baseline file each, so the job says why.
  if (result.baseline) {
    for (const BaselineEntry& e : result.baseline->stale) {
      Annotation a;
      a.command = "error";
      a.file = result.baseline->file;
      a.title = "emberlint: stale baseline entry";
      a.message = stale_entry_text(e);
      print(out, a);
    }
  }
}

}  // namespace emberlint
