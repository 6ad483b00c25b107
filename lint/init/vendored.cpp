#include "lint/init/vendored.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "lint/compile/configurations.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint::discovery {

namespace fs = std::filesystem;

namespace {

// Words that say what kind of holder it is, not which one.
bool generic_word(const std::string& w) {
  static const std::set<std::string> generic = {
      "the",   "and",        "by",         "of",   "all",         "rights",  "reserved",   "inc",
      "llc",   "ltd",        "limited",    "corp", "corporation", "co",      "company",    "gmbh",
      "group", "foundation", "project",    "team", "authors",     "author",  "developers", "contributors",
      "its",   "affiliates", "university", "c",    "copyright",   "holders", "holder"};
  return generic.count(w) != 0;
}

// A holder's distinguishing words: lower case, without years, e-mail addresses and generic words.
std::vector<std::string> holder_words(const std::string& holder) {
  std::vector<std::string> out;
  std::string cur;
  bool email = false;
  auto flush = [&] {
    if (!cur.empty() && !email && !generic_word(cur) && !std::isdigit(static_cast<unsigned char>(cur[0])))
      out.push_back(cur);
    cur.clear();
  };
  for (char c : holder) {
    if (c == '<') email = true;
    if (std::isalnum(static_cast<unsigned char>(c))) {
      cur.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    } else {
      if (c == '@') email = true;  // a bare address: its words up to here are the address's
      flush();
      if (c == '>') email = false;
    }
  }
  flush();
  return out;
}

bool same_holder(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  return std::any_of(a.begin(), a.end(),
                     [&](const std::string& w) { return std::find(b.begin(), b.end(), w) != b.end(); });
}

std::string read_head(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::string text(8192, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

}  // namespace

std::vector<std::string> copyright_holders(std::string_view text, std::size_t lines) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  for (std::size_t n = 0; n < lines && begin < text.size(); ++n) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    const std::string line(text.substr(begin, end - begin));
    begin = end + 1;
    const std::string lower = ascii_lower(line);
    const std::size_t at = lower.find("copyright");
    if (at == std::string::npos) continue;
    std::string holder = line.substr(at + 9);
    // "(c) 2008-2020 The Khronos Group Inc." -> "The Khronos Group Inc."; a notice names a year or (c) first,
    // which "the above copyright notice" of a license's text does not.
    std::size_t i = 0;
    bool marked = false;
    while (i < holder.size()) {
      const unsigned char c = static_cast<unsigned char>(holder[i]);
      if (ascii_lower(holder.substr(i, 3)) == "(c)") {
        i += 3;
        marked = true;
      } else if (std::isdigit(c) || c >= 0x80) {  // a year, or the bytes of a ©
        ++i;
        marked = true;
      } else if (std::isspace(c) || std::ispunct(c)) {
        ++i;
      } else {
        break;
      }
    }
    if (!marked) continue;
    holder = holder.substr(i);
    while (!holder.empty() && std::isspace(static_cast<unsigned char>(holder.back()))) holder.pop_back();
    if (!holder_words(holder).empty()) out.push_back(holder);
  }
  return out;
}

VendoredFiles::VendoredFiles(const fs::path& root, const std::vector<CompileCommand>& commands) {
  std::set<std::string> bases = {"", "include", "src"};
  for (const CompileCommand& c : commands) {
    for (const fs::path& folder : command_include_folders(c)) {
      const fs::path rel = folder.lexically_relative(root);
      if (!rel.empty() && *rel.begin() != "..")
        bases.insert(rel == "." ? std::string() : rel.generic_string());
    }
  }
  bases_.assign(bases.begin(), bases.end());
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root, ec)) {
    const std::string stem = ascii_lower(e.path().stem().string());
    if ((stem != "license" && stem != "licence" && stem != "copying") || !e.is_regular_file(ec)) continue;
    for (const std::string& holder : copyright_holders(read_head(e.path()), 200))
      holders_.push_back(holder_words(holder));
  }
}

std::string VendoredFiles::why(const std::string& rel, std::string_view text) const {
  if (holders_.empty()) return {};
  for (const std::string& base : bases_) {
    if (!base.empty() && rel.rfind(base + "/", 0) != 0) continue;
    const std::string spelled = base.empty() ? rel : rel.substr(base.size() + 1);
    if (spelled.find('/') == std::string::npos) continue;  // a folder of the library's, not a file name
    const KnownLibrary* library = library_of_include(spelled);
    if (!library) continue;
    const std::vector<std::string> holders = copyright_holders(text);
    if (holders.empty()) return {};
    for (const std::string& holder : holders) {
      const std::vector<std::string> words = holder_words(holder);
      if (std::any_of(holders_.begin(), holders_.end(),
                      [&](const auto& project) { return same_holder(project, words); }))
        return {};
    }
    return "a copy of " + library->name + "'s " + spelled + ", copyright " + holders.front();
  }
  return {};
}

}  // namespace emberlint::discovery
