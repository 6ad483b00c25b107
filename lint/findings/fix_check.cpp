#include "lint/findings/fix_check.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "lint/parse/parse.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint {

namespace {

using Fix = std::vector<Replacement>;

// Where each fix's text landed in an edited file.
struct Span {
  std::size_t file = 0, begin = 0, end = 0;
  const Fix* fix = nullptr;
};

struct Edited {
  std::vector<EditedFile> files;
  std::vector<Span> spans;
};

// The files as the fixes leave them; nullopt when a file cannot be read or two fixes overlap.
std::optional<Edited> apply(const std::vector<const Fix*>& fixes) {
  std::map<std::filesystem::path, std::vector<std::pair<const Replacement*, const Fix*>>> by_file;
  std::set<Replacement> seen;  // a replacement several findings share (nested operators) is applied once
  for (const Fix* f : fixes) {
    for (const auto& r : *f) {
      if (seen.insert(r).second) by_file[r.file].emplace_back(&r, f);
    }
  }
  Edited out;
  for (auto& [path, list] : by_file) {
    auto source = SourceText::read(path);
    if (!source) return std::nullopt;
    std::sort(list.begin(), list.end(),
              [](const auto& a, const auto& b) { return a.first->offset < b.first->offset; });
    const std::string& text = source->text();
    EditedFile e;
    e.path = path;
    std::size_t pos = 0;
    for (const auto& [r, fix] : list) {
      if (r->offset < pos || r->offset + r->length > text.size()) return std::nullopt;
      e.text.append(text, pos, r->offset - pos);
      for (const auto& c : r->calls) e.calls.push_back({e.text.size() + c.offset, c.qualified_name});
      out.spans.push_back({out.files.size(), e.text.size(), e.text.size() + r->replacement.size(), fix});
      e.text += r->replacement;
      pos = r->offset + r->length;
    }
    e.text.append(text, pos, std::string::npos);
    out.files.push_back(std::move(e));
  }
  return out;
}

// The problems of the unit with these fixes applied, each with the fix whose text it is in (null when none).
std::vector<std::pair<EditProblem, const Fix*>> check(const clang::Index& index,
                                                      const CompileCommand& command,
                                                      const std::string& resource_dir,
                                                      const std::vector<const Fix*>& fixes) {
  auto edited = apply(fixes);
  if (!edited) return {{{"the fixes overlap or the file cannot be read"}, nullptr}};
  std::vector<std::pair<EditProblem, const Fix*>> out;
  for (auto& p : check_edited_unit(index, command, resource_dir, edited->files)) {
    const Fix* in = nullptr;
    for (const Span& s : edited->spans) {
      if (p.file == s.file && p.offset >= s.begin && p.offset < s.end) in = s.fix;
    }
    out.emplace_back(std::move(p), in);
  }
  return out;
}

void withdraw(Diagnostic& d, const std::string& why) {
  d.fix.clear();
  d.message += " (no automatic fix: " + why + ")";
}

}  // namespace

void check_fixes(const clang::Index& index, const CompileCommand& command, const std::string& resource_dir,
                 bool unit_has_errors, std::vector<Diagnostic>& diagnostics) {
  std::vector<const Fix*> remaining;
  for (const auto& d : diagnostics) {
    if (d.fix.empty()) continue;
    auto same = [&](const Fix* f) { return *f == d.fix; };
    if (std::none_of(remaining.begin(), remaining.end(), same)) remaining.push_back(&d.fix);
  }
  if (remaining.empty()) return;
  std::map<Fix, std::string> failed;
  if (unit_has_errors) {
    for (const Fix* f : remaining)
      failed.emplace(*f, "the file does not compile as it is, so no fix can be checked");
    remaining.clear();
  }
  // Together first (one parse when every fix is sound); the problems inside fixes' texts withdraw those
  // fixes and the rest are checked again.
  while (!remaining.empty()) {
    auto problems = check(index, command, resource_dir, remaining);
    if (problems.empty()) break;
    bool inside = false;
    for (const auto& [problem, culprit] : problems) {
      if (!culprit) continue;
      inside = true;
      failed.emplace(*culprit, problem.why);  // the first problem of a fix says why
      remaining.erase(std::remove(remaining.begin(), remaining.end(), culprit), remaining.end());
    }
    if (inside) continue;
    // Problems outside every fix's text only (an overload a fix changed, say): each fix is checked alone, or,
    // when there are too many for that, none is offered.
    const std::size_t before = failed.size();
    if (remaining.size() <= kFixesCheckedAlone) {
      for (const Fix* f : remaining) {
        if (auto alone = check(index, command, resource_dir, {f}); !alone.empty())
          failed.emplace(*f, alone.front().first.why);
      }
    }
    if (failed.size() == before) {
      for (const Fix* f : remaining)
        failed.emplace(*f, "with the file's other fixes, " + problems.front().first.why);
    }
    break;
  }
  if (failed.empty()) return;
  // Withdrawing changes the fixes the map keys point into: match by value first, then withdraw.
  std::vector<std::pair<Diagnostic*, std::string>> withdrawn;
  for (auto& d : diagnostics) {
    if (auto it = failed.find(d.fix); !d.fix.empty() && it != failed.end())
      withdrawn.emplace_back(&d, it->second);
  }
  for (auto& [d, why] : withdrawn) withdraw(*d, why);
}

}  // namespace emberlint
