// The HTML report rendered by Debian's headless Chromium: every cell the browser shows agrees with the JSON
// report, the search filter runs, and a screenshot is kept in the build folder as a test artifact.
#include <nlohmann/json.hpp>
#include <regex>

#include "tests/support/test_support.hpp"

namespace analyze_test {

namespace fs = std::filesystem;
using namespace emberlint::test;   // tests/support/test_support.hpp
using emberlint::test::emberlint;  // not the namespace

namespace {

using nlohmann::json;

const fs::path kChromium = "/usr/bin/chromium";

std::string chromium(const std::string& args) {
  // --no-sandbox: CI containers run as root; the profile goes to a scratch folder.
  std::string command = "'";  // appended, not `"'" + ...`, which GCC 12 misreads (-Wrestrict)
  command += kChromium.string();
  command += "' --headless --no-sandbox --disable-gpu --no-first-run ";
  return command + args;
}

// The attributes of every <td class="cell ..."> of the serialized DOM, in document order.
struct RenderedCell {
  std::string op, backend, status, location, style;
};
std::vector<RenderedCell> rendered_cells(const std::string& dom) {
  std::vector<RenderedCell> out;
  auto attr = [](const std::string& tag, const std::string& name) {
    auto at = tag.find(" " + name + "=\"");
    if (at == std::string::npos) return std::string();
    at += name.size() + 3;
    return tag.substr(at, tag.find('"', at) - at);
  };
  for (auto at = dom.find("<td class=\"cell"); at != std::string::npos;
       at = dom.find("<td class=\"cell", at + 1)) {
    std::string tag = dom.substr(at, dom.find('>', at) - at);
    out.push_back({attr(tag, "data-op"), attr(tag, "data-backend"), attr(tag, "data-status"),
                   attr(tag, "data-location"), attr(tag, "style")});
  }
  return out;
}

// The rows the browser shows after the page's script ran: <tr class="oprow" ...> without display: none.
std::vector<std::string> visible_rows(const std::string& dom) {
  std::vector<std::string> out;
  std::regex row(R"re(<tr class="oprow" data-op="([^"]*)"[^>]*?( style="display: none;")?>)re");
  for (std::sregex_iterator it(dom.begin(), dom.end(), row), end; it != end; ++it) {
    if (!(*it)[2].matched) out.push_back((*it)[1]);
  }
  return out;
}

class HtmlReport : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kChromium))
      GTEST_SKIP() << "Debian's chromium is not installed (scripts/setup.sh installs it)";
    scratch_ = scratch_dir("html");
    artifacts_ = ANALYZE_ARTIFACTS;
    fs::create_directories(artifacts_);
  }
  void TearDown() override { fs::remove_all(scratch_); }
  fs::path scratch_, artifacts_;
};

TEST_F(HtmlReport, ChromiumRendersTheCellsOfTheJsonReport) {
  const fs::path fixture = fs::path(ANALYZE_FIXTURES) / "class_shape";
  const fs::path html = artifacts_ / "class_shape_inventory.html";
  Outcome json_run = run_in(fixture, emberlint() + " analyze --format json", scratch_);
  Outcome html_run =
      run_in(fixture, emberlint() + " analyze --format html -o '" + html.string() + "'", scratch_);
  ASSERT_EQ(html_run.exit_code, 1) << html_run.err;
  json doc = json::parse(json_run.out);

  // Self-contained: no external script, style, image or font.
  std::string text = read_file(html);
  EXPECT_EQ(text.find("src=\"http"), std::string::npos);
  EXPECT_EQ(text.find("href=\"http"), std::string::npos);

  std::string profile = "--user-data-dir='" + (scratch_ / "profile").string() + "' ";
  Outcome dom =
      run_in(scratch_, chromium(profile + "--dump-dom 'file://" + html.string() + "'"), scratch_ / "dom");
  ASSERT_EQ(dom.exit_code, 0) << dom.err;
  auto cells = rendered_cells(dom.out);
  ASSERT_EQ(cells.size(), doc.at("ops").size() * doc.at("backends").size());
  std::size_t i = 0;
  for (const auto& op : doc.at("ops")) {
    for (const auto& backend : doc.at("backends")) {
      const json& cell = op.at("cells").at(backend.at("name").get<std::string>());
      const RenderedCell& r = cells[i++];
      EXPECT_EQ(r.op, op.at("id").get<std::string>());
      EXPECT_EQ(r.backend, backend.at("name").get<std::string>());
      EXPECT_EQ(r.status, cell.at("status").get<std::string>()) << r.op << "/" << r.backend;
      std::string location = cell.at("location").is_null()
                                 ? std::string()
                                 : cell.at("location").at("file").get<std::string>() + ":" +
                                       std::to_string(cell.at("location").at("line").get<int>());
      EXPECT_EQ(r.location, location) << r.op << "/" << r.backend;
    }
  }
  // The coverage bars and the heat map say what the JSON counts say.
  EXPECT_NE(dom.out.find("<div class=\"coverage\" data-backend=\"beta\">60% (3/5)</div>"), std::string::npos);
  EXPECT_NE(dom.out.find("data-category=\"math\" data-backend=\"gamma\""), std::string::npos);

  // The search box filters rows (the script reads #search= from the address).
  Outcome filtered = run_in(
      scratch_, chromium(profile + "--dump-dom 'file://" + html.string() + "#search=sca'"), scratch_ / "f");
  EXPECT_EQ(visible_rows(filtered.out), std::vector<std::string>{"scale"});
  EXPECT_EQ(visible_rows(dom.out).size(), 5u);

  const fs::path png = artifacts_ / "class_shape_inventory.png";
  fs::remove(png);
  Outcome shot = run_in(scratch_,
                        chromium(profile + "--window-size=1100,900 --screenshot='" + png.string() +
                                 "' 'file://" + html.string() + "'"),
                        scratch_ / "shot");
  EXPECT_EQ(shot.exit_code, 0) << shot.err;
  ASSERT_TRUE(fs::exists(png));
  EXPECT_GT(fs::file_size(png), 5000u);
  EXPECT_EQ(read_file(png).substr(1, 3), "PNG");
}

}  // namespace
}  // namespace analyze_test
