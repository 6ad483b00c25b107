// The report formats of `emberlint check` and `emberlint analyze` against their specifications: SARIF 2.1.0
// as GitHub code scanning reads it, GitHub workflow commands and their escaping, JUnit XML (well-formed,
// counts consistent) and the Markdown step summary. End to end on copies of the fixtures, plus renderer tests
// with hand-made results for the escaping corner cases.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "reports/report.hpp"
#include "rules/registry.hpp"
#include "tests/support/test_support.hpp"

namespace {

using emberlint::test::Outcome;
using emberlint::test::read_file;
using emberlint::test::write_file;
using nlohmann::json;
namespace fs = std::filesystem;

const fs::path kFixtures = EMBERLINT_FIXTURES;
const fs::path kAnalyzeFixture = kFixtures / ".." / ".." / "analyze" / "fixtures" / "class_shape";

// ---------------------------------------------------------------------------------------------------------
// A small XML reader: enough of XML 1.0 to reject what is not well-formed (unbalanced or crossed tags, a raw
// '<' or '&' in text, unquoted or duplicate attributes, a second root) and to read back elements,
// attributes and entity-decoded text.
struct Element {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::vector<Element> children;
  std::string text;

  std::vector<const Element*> all(const std::string& tag) const {
    std::vector<const Element*> out;
    for (const Element& c : children) {
      if (c.name == tag) out.push_back(&c);
      for (const Element* d : c.all(tag)) out.push_back(d);
    }
    return out;
  }
  std::size_t count(const std::string& attribute) const { return std::stoul(attributes.at(attribute)); }
};

class XmlReader {
 public:
  explicit XmlReader(std::string text) : s_(std::move(text)) {}

  Element document() {
    if (s_.compare(0, 5, "<?xml") == 0) {
      std::size_t end = s_.find("?>");
      if (end == std::string::npos) fail("unterminated XML declaration");
      i_ = end + 2;
    }
    skip_space();
    Element root = element();
    skip_space();
    if (i_ != s_.size()) fail("content after the root element");
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error("not well-formed XML at byte " + std::to_string(i_) + ": " + what);
  }
  void skip_space() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  std::string name() {
    std::size_t begin = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '-' ||
                              s_[i_] == '_' || s_[i_] == '.' || s_[i_] == ':'))
      ++i_;
    if (i_ == begin) fail("expected a name");
    return s_.substr(begin, i_ - begin);
  }
  // Text up to `stop`, with entities decoded; a raw '<' or '&' is an error.
  std::string text(char stop) {
    std::string out;
    while (i_ < s_.size() && s_[i_] != stop) {
      char c = s_[i_];
      if (c == '<' && stop != '<') fail("raw '<'");
      if (c == '&') {
        std::size_t semi = s_.find(';', i_);
        if (semi == std::string::npos) fail("unterminated entity");
        std::string entity = s_.substr(i_ + 1, semi - i_ - 1);
        static const std::map<std::string, std::string> kEntities = {
            {"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"quot", "\""}, {"apos", "'"}};
        if (auto it = kEntities.find(entity); it != kEntities.end()) {
          out += it->second;
        } else if (entity.size() > 1 && entity[0] == '#') {
          out += static_cast<char>(std::stoi(entity.substr(1)));
        } else {
          fail("unknown entity &" + entity + ";");
        }
        i_ = semi + 1;
        continue;
      }
      if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r')
        fail("a control character XML 1.0 does not allow");
      out += c;
      ++i_;
    }
    return out;
  }
  Element element() {
    if (i_ >= s_.size() || s_[i_] != '<') fail("expected '<'");
    ++i_;
    Element e;
    e.name = name();
    for (;;) {
      skip_space();
      if (s_.compare(i_, 2, "/>") == 0) {
        i_ += 2;
        return e;
      }
      if (i_ < s_.size() && s_[i_] == '>') break;
      std::string key = name();
      if (s_.compare(i_, 2, "=\"") != 0) fail("attribute " + key + " is not quoted");
      i_ += 2;
      std::string value = text('"');
      if (i_ >= s_.size()) fail("unterminated attribute");
      ++i_;
      if (!e.attributes.emplace(key, value).second) fail("duplicate attribute " + key);
    }
    ++i_;
    for (;;) {
      e.text += text('<');
      if (i_ >= s_.size()) fail("unclosed <" + e.name + ">");
      if (s_.compare(i_, 2, "</") == 0) {
        i_ += 2;
        if (name() != e.name) fail("mismatched end tag of <" + e.name + ">");
        skip_space();
        if (i_ >= s_.size() || s_[i_] != '>') fail("expected '>'");
        ++i_;
        return e;
      }
      e.children.push_back(element());
    }
  }

  std::string s_;
  std::size_t i_ = 0;
};

Element parse_xml(const std::string& text) {
  return XmlReader(text).document();
}

// ---------------------------------------------------------------------------------------------------------

class Formats : public ::testing::Test {
 protected:
  void SetUp() override { scratch_ = emberlint::test::scratch_dir("formats"); }
  void TearDown() override { fs::remove_all(scratch_); }

  // A copy of a fixture folder inside the scratch folder.
  fs::path copy(const fs::path& fixture, const std::string& name) {
    fs::path to = scratch_ / name;
    fs::copy(fixture, to, fs::copy_options::recursive);
    return to;
  }
  Outcome run(const fs::path& where, const std::string& args) {
    return emberlint::test::run_in(where, emberlint::test::emberlint() + " " + args, scratch_ / "out");
  }
  json run_json(const fs::path& where, const std::string& args) {
    Outcome o = run(where, args);
    EXPECT_TRUE(o.exit_code == 0 || o.exit_code == 1 || o.exit_code == 3) << args << "\n" << o.err;
    try {
      return json::parse(o.out);
    } catch (const json::exception& e) {
      ADD_FAILURE() << args << ": " << e.what() << "\n" << o.out;
      return json::object();
    }
  }
  // The rule fixture project, with one file in a folder whose name needs percent-encoding.
  fs::path project() {
    fs::path p = copy(kFixtures / "project", "project");
    write_file(p / "frontend/with space/odd name.cpp", "#include <Eigen/Core>\nint f();\n");
    return p;
  }

  // The same with a file that cannot be parsed.
  fs::path broken_project() {
    fs::path p = project();
    write_file(p / "frontend/broken.cpp", "int broken( {\n");
    return p;
  }

  fs::path scratch_;
};

// Every property GitHub code scanning needs, present and typed as SARIF 2.1.0 says.
void expect_valid_sarif(const json& doc) {
  ASSERT_TRUE(doc.is_object());
  EXPECT_TRUE(doc.at("$schema").is_string());
  EXPECT_EQ(doc.at("version"), "2.1.0");
  ASSERT_TRUE(doc.at("runs").is_array());
  ASSERT_EQ(doc.at("runs").size(), 1u);
  const json& run = doc.at("runs").at(0);
  const json& driver = run.at("tool").at("driver");
  EXPECT_EQ(driver.at("name"), "emberlint");
  EXPECT_EQ(driver.at("version"), emberlint::kVersion);
  EXPECT_EQ(driver.at("semanticVersion"), emberlint::kVersion);

  // Every registry rule, in registry order, with its documentation.
  std::vector<const emberlint::RuleInfo*> infos = emberlint::rule_infos();
  ASSERT_EQ(driver.at("rules").size(), infos.size());
  const std::set<std::string> kLevels = {"error", "warning", "note"};
  for (std::size_t i = 0; i < infos.size(); ++i) {
    const json& rule = driver.at("rules").at(i);
    SCOPED_TRACE(infos[i]->code);
    EXPECT_EQ(rule.at("id"), infos[i]->code);
    EXPECT_EQ(rule.at("name"), infos[i]->name);
    EXPECT_EQ(rule.at("shortDescription").at("text"), infos[i]->summary);
    EXPECT_FALSE(rule.at("fullDescription").at("text").get<std::string>().empty());
    EXPECT_EQ(rule.at("help").at("text"), infos[i]->doc);
    EXPECT_EQ(rule.at("help").at("markdown"), infos[i]->doc);
    EXPECT_TRUE(kLevels.count(rule.at("defaultConfiguration").at("level").get<std::string>()));
    EXPECT_TRUE(rule.at("properties").at("tags").is_array());
    EXPECT_TRUE(std::set<std::string>({"very-high", "high", "medium", "low"})
                    .count(rule.at("properties").at("precision").get<std::string>()));
    EXPECT_TRUE(std::set<std::string>({"error", "warning", "recommendation"})
                    .count(rule.at("properties").at("problem.severity").get<std::string>()));
  }

  const json& base = run.at("originalUriBaseIds").at("%SRCROOT%").at("uri");
  ASSERT_TRUE(base.is_string());
  EXPECT_EQ(base.get<std::string>().rfind("file:///", 0), 0u);
  EXPECT_EQ(base.get<std::string>().back(), '/');
  ASSERT_TRUE(run.at("invocations").is_array());
  ASSERT_EQ(run.at("invocations").size(), 1u);
  EXPECT_TRUE(run.at("invocations").at(0).at("executionSuccessful").is_boolean());

  ASSERT_TRUE(run.at("results").is_array());
  for (const json& r : run.at("results")) {
    SCOPED_TRACE(r.dump());
    ASSERT_TRUE(r.at("ruleId").is_string());
    ASSERT_TRUE(r.at("ruleIndex").is_number_unsigned());
    EXPECT_EQ(driver.at("rules").at(r.at("ruleIndex").get<std::size_t>()).at("id"), r.at("ruleId"));
    EXPECT_TRUE(kLevels.count(r.at("level").get<std::string>()));
    EXPECT_FALSE(r.at("message").at("text").get<std::string>().empty());
    ASSERT_EQ(r.at("locations").size(), 1u);
    const json& physical = r.at("locations").at(0).at("physicalLocation");
    std::string uri = physical.at("artifactLocation").at("uri");
    EXPECT_EQ(physical.at("artifactLocation").at("uriBaseId"), "%SRCROOT%");
    EXPECT_EQ(uri.find(':'), std::string::npos) << "a relative reference, no scheme";
    EXPECT_NE(uri.front(), '/');
    EXPECT_EQ(uri.find(' '), std::string::npos);
    EXPECT_EQ(uri.find('\\'), std::string::npos);
    const json& region = physical.at("region");
    ASSERT_TRUE(region.at("startLine").is_number_unsigned());
    EXPECT_GE(region.at("startLine").get<int>(), 1);
    EXPECT_GE(region.value("startColumn", 1), 1);
    EXPECT_GE(region.value("endLine", region.at("startLine").get<int>()), region.at("startLine").get<int>());
    EXPECT_GE(region.value("endColumn", 1), 1);
    std::string print = r.at("partialFingerprints").at("emberlint/v1");
    EXPECT_EQ(print.find(':'), 32u) << print;
  }
}

TEST_F(Formats, SarifHasEverythingCodeScanningNeeds) {
  fs::path p = project();
  json doc = run_json(p, "check --format sarif");
  expect_valid_sarif(doc);
  const json& results = doc.at("runs").at(0).at("results");
  json plain = run_json(p, "check --format json");
  ASSERT_EQ(results.size(), plain.at("diagnostics").size());
  ASSERT_GT(results.size(), 10u) << "the fixture has findings of most rules";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const json& d = plain.at("diagnostics").at(i);
    EXPECT_EQ(results.at(i).at("ruleId"), d.at("code"));
    EXPECT_EQ(results.at(i).at("locations").at(0).at("physicalLocation").at("region").at("startLine"),
              d.at("line"));
    EXPECT_EQ(results.at(i).at("level"), d.at("severity") == "info" ? json("note") : d.at("severity"));
  }
  // Spaces are percent-encoded; the JSON format shows the same file unencoded.
  bool encoded = false;
  for (const json& r : results) {
    encoded |= r.at("locations").at(0).at("physicalLocation").at("artifactLocation").at("uri") ==
               "frontend/with%20space/odd%20name.cpp";
  }
  EXPECT_TRUE(encoded);
  EXPECT_TRUE(doc.at("runs").at(0).at("invocations").at(0).at("executionSuccessful").get<bool>());
  EXPECT_FALSE(doc.at("runs").at(0).at("invocations").at(0).contains("toolExecutionNotifications"));
}

TEST_F(Formats, SarifFingerprintsAreStableAndTellFindingsApart) {
  fs::path p = project();
  json first = run_json(p, "check --format sarif");
  json second = run_json(p, "check --format sarif");
  EXPECT_EQ(first, second) << "the whole report is deterministic";
  std::set<std::string> prints;
  for (const json& r : first.at("runs").at(0).at("results"))
    prints.insert(r.at("partialFingerprints").at("emberlint/v1").get<std::string>());
  EXPECT_EQ(prints.size(), first.at("runs").at(0).at("results").size());
  // Lines inserted above a finding move it but keep its fingerprint.
  fs::path file = p / "frontend/with space/odd name.cpp";
  auto print_of = [&](const json& doc) {
    for (const json& r : doc.at("runs").at(0).at("results")) {
      if (r.at("locations").at(0).at("physicalLocation").at("artifactLocation").at("uri") ==
          "frontend/with%20space/odd%20name.cpp")
        return r.at("partialFingerprints").at("emberlint/v1").get<std::string>();
    }
    return std::string();
  };
  std::string before = print_of(first);
  write_file(file, "// a comment\n\n\n" + read_file(file));
  json moved = run_json(p, "check --format sarif");
  EXPECT_FALSE(before.empty());
  EXPECT_EQ(print_of(moved), before);
}

TEST_F(Formats, SarifColumnsCountCodePoints) {
  fs::path p = copy(kFixtures / "project", "project");
  // "/* é */ " is 9 bytes but 8 code points: the include starts at byte column 10, code point column 9.
  write_file(p / "frontend/accent.cpp", "/* \xC3\xA9 */ #include <Eigen/Core>\nint f();\n");
  json doc = run_json(p, "check --format sarif frontend/accent.cpp");
  json plain = run_json(p, "check --format json frontend/accent.cpp");
  ASSERT_EQ(doc.at("runs").at(0).at("results").size(), 1u);
  ASSERT_EQ(plain.at("diagnostics").size(), 1u);
  EXPECT_EQ(doc.at("runs").at(0).at("columnKind"), "unicodeCodePoints");
  const json& region =
      doc.at("runs").at(0).at("results").at(0).at("locations").at(0).at("physicalLocation").at("region");
  EXPECT_EQ(plain.at("diagnostics").at(0).at("column"), 10);
  EXPECT_EQ(region.at("startColumn"), 9);
  EXPECT_EQ(region.at("endColumn").get<int>(), plain.at("diagnostics").at(0).at("end_column").get<int>() - 1);
}

TEST_F(Formats, SarifFixesMatchTheJsonFixes) {
  fs::path p = copy(kFixtures / "fix", "fix");
  fs::remove(p / "src/operators.cpp.fixed");
  json doc = run_json(p, "check --format sarif");
  json plain = run_json(p, "check --format json");
  expect_valid_sarif(doc);
  const json& results = doc.at("runs").at(0).at("results");
  ASSERT_EQ(results.size(), plain.at("diagnostics").size());
  std::size_t fixed = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const json& want = plain.at("diagnostics").at(i).at("fix");
    ASSERT_EQ(results.at(i).contains("fixes"), !want.empty()) << i;
    if (want.empty()) continue;
    ++fixed;
    const json& changes = results.at(i).at("fixes").at(0).at("artifactChanges");
    ASSERT_EQ(changes.size(), 1u);
    EXPECT_EQ(changes.at(0).at("artifactLocation").at("uri"), want.at(0).at("file"));
    EXPECT_EQ(changes.at(0).at("artifactLocation").at("uriBaseId"), "%SRCROOT%");
    const json& replacements = changes.at(0).at("replacements");
    ASSERT_EQ(replacements.size(), want.size());
    for (std::size_t k = 0; k < want.size(); ++k) {
      const json& region = replacements.at(k).at("deletedRegion");
      // The fixture is ASCII, so characters and bytes agree.
      EXPECT_EQ(region.at("byteOffset"), want.at(k).at("offset"));
      EXPECT_EQ(region.at("byteLength"), want.at(k).at("length"));
      EXPECT_EQ(region.at("charOffset"), want.at(k).at("offset"));
      EXPECT_EQ(region.at("charLength"), want.at(k).at("length"));
      EXPECT_EQ(replacements.at(k).at("insertedContent").at("text"), want.at(k).at("replacement"));
    }
  }
  EXPECT_GT(fixed, 5u);
}

TEST_F(Formats, SarifReportsFilesThatCouldNotBeAnalyzed) {
  fs::path p = broken_project();
  Outcome o = run(p, "check --format sarif");
  EXPECT_EQ(o.exit_code, 3) << o.err;
  json doc = json::parse(o.out);
  expect_valid_sarif(doc);
  const json& invocation = doc.at("runs").at(0).at("invocations").at(0);
  EXPECT_FALSE(invocation.at("executionSuccessful").get<bool>());
  ASSERT_EQ(invocation.at("toolExecutionNotifications").size(), 1u);
  const json& n = invocation.at("toolExecutionNotifications").at(0);
  // Analyzed partially, which the config does not expect: a warning that fails the run.
  EXPECT_EQ(n.at("level"), "warning");
  EXPECT_EQ(n.at("properties").at("cause"), "other");
  EXPECT_NE(n.at("message").at("text").get<std::string>().find("frontend/broken.cpp: analyzed partially"),
            std::string::npos);
  EXPECT_EQ(n.at("locations").at(0).at("physicalLocation").at("artifactLocation").at("uri"),
            "frontend/broken.cpp");
}

TEST_F(Formats, AnalyzeSarifCarriesTheInventoryFindings) {
  fs::path p = copy(kAnalyzeFixture, "class_shape");
  json doc = run_json(p, "analyze --format sarif");
  json plain = run_json(p, "analyze --format json");
  expect_valid_sarif(doc);
  std::set<std::string> codes, expected;
  for (const json& r : doc.at("runs").at(0).at("results")) codes.insert(r.at("ruleId").get<std::string>());
  for (const json& d : plain.at("diagnostics")) expected.insert(d.at("code").get<std::string>());
  EXPECT_EQ(codes, (std::set<std::string>{"EL400", "EL401", "EL402", "EL403"}));
  EXPECT_EQ(codes, expected);
  EXPECT_EQ(doc.at("runs").at(0).at("results").size(), plain.at("diagnostics").size());
}

// ---------------------------------------------------------------------------------------------------------

emberlint::CheckResult made_up_result() {
  emberlint::CheckResult r;
  r.root = "/project";
  r.files_analyzed = 2;
  emberlint::Diagnostic d;
  d.code = "EL200";
  d.name = "tensor-operator";
  d.severity = emberlint::Severity::warning;
  d.file = "/project/src/a,b:c.cpp";
  d.line = 3;
  d.column = 5;
  d.end_line = 3;
  d.end_column = 9;
  d.message = "100% done,\nnext: a | b <T> & \"q\" \x01";
  r.diagnostics.push_back(d);
  d.severity = emberlint::Severity::info;
  d.line = 7;
  d.message = "an info";
  r.diagnostics.push_back(d);
  emberlint::Failure f;
  f.file = "/project/src/broken.cpp";
  f.where = f.file;
  f.line = 1;
  f.column = 12;
  f.message = "error: expected ';'";
  r.failures.push_back(f);
  return r;
}

TEST(GithubFormat, EscapesDataAndProperties) {
  std::ostringstream out;
  emberlint::render_github(out, made_up_result());
  EXPECT_EQ(
      out.str(),
      "::warning file=src/a%2Cb%3Ac.cpp,line=3,col=5,endLine=3,endColumn=9,title=EL200 tensor-operator::"
      "100%25 done,%0Anext: a | b <T> & \"q\" \x01\n"
      "::notice file=src/a%2Cb%3Ac.cpp,line=7,col=5,title=EL200 tensor-operator::an info\n"
      "::error file=src/broken.cpp,line=1,col=12,title=emberlint%3A could not analyze src/broken.cpp::"
      "src/broken.cpp:1:12: error: expected ';'\n");
}

TEST_F(Formats, GithubAnnotatesEveryFindingAndFailure) {
  fs::path p = broken_project();
  json plain = run_json(p, "check --format json");
  Outcome o = run(p, "check --format github");
  EXPECT_EQ(o.exit_code, 3);
  std::istringstream lines(o.out);
  std::size_t n = 0, errors = 0;
  for (std::string line; std::getline(lines, line); ++n) {
    EXPECT_TRUE(line.rfind("::warning file=", 0) == 0 || line.rfind("::error file=", 0) == 0 ||
                line.rfind("::notice file=", 0) == 0)
        << line;
    EXPECT_NE(line.find(",title="), std::string::npos) << line;
    errors += line.rfind("::warning file=frontend/broken.cpp,", 0) == 0 &&
              line.find(",title=emberlint%3A analyzed frontend/broken.cpp partially::") != std::string::npos;
  }
  EXPECT_EQ(n, plain.at("diagnostics").size() + plain.at("failures").size() + plain.at("partial").size());
  EXPECT_EQ(errors, 1u);
  EXPECT_NE(o.out.find("file=frontend/with space/odd name.cpp,line=1,col=1,"), std::string::npos);
}

TEST(JunitFormat, EscapesMessagesIntoWellFormedXml) {
  std::ostringstream out;
  emberlint::render_junit(out, made_up_result(), {"suite <1>", {emberlint::find_rule("EL200")}});
  Element root = parse_xml(out.str());
  EXPECT_EQ(root.name, "testsuites");
  auto failures = root.all("failure");
  ASSERT_EQ(failures.size(), 1u);
  // The message survives the round trip, but for the control character XML cannot carry.
  EXPECT_NE(failures[0]->text.find("100% done,\nnext: a | b <T> & \"q\" \xEF\xBF\xBD"), std::string::npos);
  EXPECT_NE(failures[0]->text.find("src/a,b:c.cpp:7:5: info: an info"), std::string::npos);
  EXPECT_EQ(root.all("testsuite").at(0)->attributes.at("name"), "suite <1>");
}

TEST_F(Formats, JunitCountsAgreeWithTheTestcases) {
  fs::path p = broken_project();
  json plain = run_json(p, "check --format json");
  Outcome o = run(p, "check --format junit");
  EXPECT_EQ(o.exit_code, 3);
  Element root = parse_xml(o.out);
  ASSERT_EQ(root.name, "testsuites");
  auto suites = root.all("testsuite");
  ASSERT_EQ(suites.size(), 1u);
  const Element& suite = *suites[0];
  auto cases = suite.all("testcase");
  std::size_t failures = suite.all("failure").size(), errors = suite.all("error").size();
  EXPECT_EQ(suite.count("tests"), cases.size());
  EXPECT_EQ(suite.count("failures"), failures);
  EXPECT_EQ(suite.count("errors"), errors);
  for (const char* a : {"tests", "failures", "errors"}) EXPECT_EQ(root.count(a), suite.count(a)) << a;
  EXPECT_EQ(errors, 1u);
  // One testcase per rule check runs (all but EL400-EL403), and one for the broken file.
  EXPECT_EQ(cases.size(), emberlint::rule_infos().size() - 4 + 1);
  std::map<std::string, std::size_t> by_code;
  for (const json& d : plain.at("diagnostics")) ++by_code[d.at("code").get<std::string>()];
  EXPECT_EQ(failures, by_code.size());
  for (const Element* c : cases) {
    std::string code = c->attributes.at("name").substr(0, 5);
    auto failed = c->all("failure");
    if (!by_code.count(code)) continue;
    ASSERT_EQ(failed.size(), 1u) << code;
    EXPECT_EQ(failed[0]->attributes.at("message"),
              std::to_string(by_code[code]) + (by_code[code] == 1 ? " finding" : " findings"));
  }
  // --select narrows the testcases to the selected rules.
  Element narrowed = parse_xml(run(p, "check --format junit --select EL1").out);
  EXPECT_EQ(narrowed.all("testcase").size(), 5u + 1u);
}

TEST_F(Formats, AnalyzeJunitHasOneTestcasePerInventoryRule) {
  fs::path p = copy(kAnalyzeFixture, "class_shape");
  Element root = parse_xml(run(p, "analyze --format junit").out);
  std::vector<std::string> names;
  for (const Element* c : root.all("testcase")) names.push_back(c->attributes.at("name"));
  EXPECT_EQ(names, (std::vector<std::string>{"EL400 missing-op", "EL401 signature-mismatch",
                                             "EL402 unexposed-op", "EL403 stub-op"}));
  EXPECT_EQ(root.count("failures"), 4u);
}

TEST(MarkdownFormat, EscapesPipesAndCapsTheFindings) {
  emberlint::CheckResult r = made_up_result();
  for (int i = 0; i < 4; ++i) r.diagnostics.push_back(r.diagnostics[1]);
  std::ostringstream out;
  emberlint::render_markdown(out, r, {"emberlint", 2});
  std::string md = out.str();
  EXPECT_NE(md.find("| code | rule | severity | findings |\n|---|---|---|---:|\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| EL200 | tensor-operator | warning | 6 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| location | code | severity | message |"), std::string::npos);
  // The message's pipe, HTML and line break cannot break the row.
  EXPECT_NE(md.find("| 100% done, next: a \\| b \\<T\\> \\& \"q\""), std::string::npos) << md;
  EXPECT_NE(md.find("_... and 4 more"), std::string::npos) << md;
  EXPECT_NE(md.find("**6 problems** (0 errors, 1 warning, 5 info) in 2 files."), std::string::npos) << md;
  EXPECT_NE(md.find("### Could not be analyzed"), std::string::npos);
  // Every table row has as many unescaped pipes as its header.
  std::istringstream lines(md);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| src/a", 0) != 0) continue;
    std::size_t pipes = 0;
    for (std::size_t i = 0; i < line.size(); ++i) pipes += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
    EXPECT_EQ(pipes, 5u) << line;
  }
}

TEST_F(Formats, MarkdownSummarizesARun) {
  fs::path p = project();
  json plain = run_json(p, "check --format json");
  Outcome o = run(p, "check --format markdown");
  EXPECT_EQ(o.exit_code, 1) << o.err;
  EXPECT_EQ(
      o.out.rfind("## emberlint\n\n**" + std::to_string(plain.at("diagnostics").size()) + " problems**", 0),
      0u)
      << o.out;
  EXPECT_NE(o.out.find("| code | rule | severity | findings |"), std::string::npos);
  // The table lists the first 100 findings, then says how many more there are.
  if (plain.at("diagnostics").size() > 100) {
    EXPECT_NE(
        o.out.find(std::to_string(plain.at("diagnostics").size() - 100) + " more (the text, json and sarif"),
        std::string::npos)
        << o.out;
  }
  // A path with spaces stays one cell.
  Outcome odd = run(p, "check --format markdown 'frontend/with space'");
  EXPECT_NE(
      odd.out.find("| frontend/with space/odd name.cpp:1 | EL100 frontend-includes-backend | warning |"),
      std::string::npos)
      << odd.out;
}

// Stale baseline entries fail the run, so every CI format must say so: annotations, notifications, a table.
TEST(StaleBaseline, EveryCiFormatShowsTheStaleEntries) {
  emberlint::CheckResult r;
  r.root = "/project";
  r.files_analyzed = 1;
  emberlint::BaselineOutcome b;
  b.file = "ci/baseline.json";
  b.matched = 2;
  emberlint::BaselineEntry e;
  e.fingerprint = std::string(32, 'a') + ":1";
  e.code = "EL300";
  e.file = "src/x.cpp";
  e.line = 41;
  e.message = "tensor cast | to float";
  b.stale.push_back(e);
  r.baseline = b;

  std::ostringstream gh;
  emberlint::render_github(gh, r);
  EXPECT_EQ(
      gh.str(),
      "::error file=ci/baseline.json,title=emberlint%3A stale baseline entry::EL300 src/x.cpp:41: tensor "
      "cast | to float (run with --prune-baseline)\n");

  std::ostringstream sarif_text;
  emberlint::render_sarif(sarif_text, r);
  json invocation = json::parse(sarif_text.str()).at("runs").at(0).at("invocations").at(0);
  EXPECT_FALSE(invocation.at("executionSuccessful").get<bool>());
  ASSERT_EQ(invocation.at("toolExecutionNotifications").size(), 1u);
  const json& n = invocation.at("toolExecutionNotifications").at(0);
  EXPECT_EQ(n.at("level"), "error");
  EXPECT_NE(n.at("message").at("text").get<std::string>().find("EL300 src/x.cpp:41"), std::string::npos);
  EXPECT_EQ(n.at("locations").at(0).at("physicalLocation").at("artifactLocation").at("uri"),
            "ci/baseline.json");

  std::ostringstream md;
  emberlint::render_markdown(md, r, {});
  EXPECT_NE(md.str().find("2 known problems hidden by `ci/baseline.json`"), std::string::npos) << md.str();
  EXPECT_NE(md.str().find("### Stale baseline entries"), std::string::npos);
  EXPECT_NE(md.str().find("| EL300 | src/x.cpp:41 | tensor cast \\| to float |"), std::string::npos)
      << md.str();

  r.baseline->stale.clear();
  std::ostringstream clean;
  emberlint::render_sarif(clean, r);
  EXPECT_TRUE(json::parse(clean.str())
                  .at("runs")
                  .at(0)
                  .at("invocations")
                  .at(0)
                  .at("executionSuccessful")
                  .get<bool>());
}

}  // namespace
