// Backend selection: scope > explicit call > EMBER_BACKEND > persisted file > default. With one backend
// compiled in, each level is shown to win by making the level below it name an unknown backend, which would
// throw if it were consulted.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "ember/ember.hpp"

namespace {

namespace fs = std::filesystem;

// Gives each test its own XDG_CONFIG_HOME and a clean selection state.
class Selection : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ember-selection-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    if (const char* old = std::getenv("XDG_CONFIG_HOME")) old_xdg_ = old;
    ::setenv("XDG_CONFIG_HOME", dir_.c_str(), 1);
    ::unsetenv("EMBER_BACKEND");
    ember::reset_backend();
  }
  void TearDown() override {
    ember::reset_backend();
    ::unsetenv("EMBER_BACKEND");
    if (old_xdg_.empty()) {
      ::unsetenv("XDG_CONFIG_HOME");
    } else {
      ::setenv("XDG_CONFIG_HOME", old_xdg_.c_str(), 1);
    }
    fs::remove_all(dir_);
  }
  void write_persisted(const std::string& text) {
    fs::create_directories(dir_ / "ember");
    std::ofstream(dir_ / "ember" / "config.json") << text;
  }
  // Runs the child program with the given environment prefix; returns its first output line.
  std::string child(const std::string& env) {
    const std::string cmd = env + " " + std::string(EMBER_TEST_BINARY_DIR) + "/ember_print_backend 2>&1";
    std::string out;
    if (FILE* p = ::popen(cmd.c_str(), "r")) {
      std::array<char, 512> buf{};
      while (std::fgets(buf.data(), buf.size(), p)) out += buf.data();
      ::pclose(p);
    }
    if (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
  }
  fs::path dir_;
  std::string old_xdg_;
};

TEST_F(Selection, DefaultIsEigen) {
  const auto choice = ember::current_backend_choice();
  EXPECT_EQ(choice.name, "eigen");
  EXPECT_EQ(choice.source, "default");
}

TEST_F(Selection, UnknownNamesAreBackendErrorsListingTheRegisteredOnes) {
  try {
    ember::set_backend("cuda");
    FAIL() << "set_backend accepted an unknown backend";
  } catch (const ember::BackendError& e) {
    EXPECT_NE(std::string(e.what()).find("cuda"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("eigen"), std::string::npos);
  }
  EXPECT_THROW(ember::BackendScope("cuda"), ember::BackendError);
}

TEST_F(Selection, PersistedFileBeatsDefault) {
  write_persisted(R"({"backend": "nosuch"})");
  try {
    ember::current_backend();
    FAIL() << "the persisted file was not consulted";
  } catch (const ember::BackendError& e) {
    EXPECT_NE(std::string(e.what()).find("config.json"), std::string::npos) << e.what();
  }
  write_persisted(R"({"backend": "eigen"})");
  EXPECT_EQ(ember::current_backend_choice().source, "persisted");
}

TEST_F(Selection, MalformedPersistedFileNamesTheFile) {
  write_persisted("{not json");
  try {
    ember::current_backend();
    FAIL();
  } catch (const ember::BackendError& e) {
    EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos) << e.what();
  }
}

TEST_F(Selection, EnvironmentBeatsPersistedFile) {
  write_persisted(R"({"backend": "nosuch"})");
  ::setenv("EMBER_BACKEND", "eigen", 1);
  EXPECT_EQ(ember::current_backend_choice().source, "environment");
  ::setenv("EMBER_BACKEND", "nosuch", 1);
  EXPECT_THROW(ember::current_backend(), ember::BackendError);
}

TEST_F(Selection, ExplicitCallBeatsEnvironment) {
  ::setenv("EMBER_BACKEND", "nosuch", 1);
  ember::set_backend("eigen");
  EXPECT_EQ(ember::current_backend_choice().source, "explicit");
  ember::reset_backend();
  EXPECT_THROW(ember::current_backend(), ember::BackendError);
}

TEST_F(Selection, ScopeBeatsEverythingAndNests) {
  ::setenv("EMBER_BACKEND", "nosuch", 1);
  {
    ember::BackendScope outer("eigen");
    EXPECT_EQ(ember::current_backend_choice().source, "scope");
    {
      ember::BackendScope inner("eigen");
      EXPECT_EQ(ember::current_backend_choice().source, "scope");
    }
    EXPECT_EQ(ember::current_backend_choice().source, "scope");
  }
  EXPECT_THROW(ember::current_backend(), ember::BackendError);
}

TEST_F(Selection, PersistedChoiceReachesAChildProcess) {
  ember::set_backend("eigen", ember::Persist::yes);
  ASSERT_TRUE(fs::exists(dir_ / "ember" / "config.json"));
  EXPECT_EQ(ember::persisted_config_path(), (dir_ / "ember" / "config.json").string());
  const std::string xdg = "XDG_CONFIG_HOME='" + dir_.string() + "'";
  EXPECT_EQ(child("env -u EMBER_BACKEND " + xdg), "eigen persisted");
  EXPECT_EQ(child("env EMBER_BACKEND=eigen " + xdg), "eigen environment");
  EXPECT_EQ(child("env EMBER_BACKEND=nosuch " + xdg).rfind("error: EMBER_BACKEND names unknown backend", 0),
            0u);
  // Without the file the child falls back to the default.
  fs::remove(dir_ / "ember" / "config.json");
  EXPECT_EQ(child("env -u EMBER_BACKEND " + xdg), "eigen default");
}

TEST_F(Selection, PersistFallsBackToHomeConfig) {
  ::unsetenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  ASSERT_NE(home, nullptr);
  EXPECT_EQ(ember::persisted_config_path(), (fs::path(home) / ".config" / "ember" / "config.json").string());
}

}  // namespace
