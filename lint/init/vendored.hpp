// Single files of someone else's code among the project's own: a copy of a well-known library's header kept
// in the tree (vexcl's CL/opencl.hpp, the Khronos C++ bindings), found by two marks together: its path
// mirrors the library's include folder (CL/opencl.hpp relative to the root, an include/ or src/ folder, or a
// folder the compile database puts on the include path, matches OpenCL's CL/**), and the copyright notice at
// its top names a holder that the project's license file does not. A project's own cuda/ folder carries the
// project's notice; a contributed file with another holder mirrors no library. Internal to lint/init/.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "lint/compile/compile_db.hpp"
#include "lint/project/known_libraries.hpp"

namespace emberlint::discovery {

class VendoredFiles {
 public:
  VendoredFiles(const std::filesystem::path& root, const std::vector<CompileCommand>& commands);
  // Why the file at `rel` (relative to the root, '/'-separated) with this text is a vendored copy ("a copy of
  // OpenCL's CL/opencl.hpp, copyright The Khronos Group Inc."); empty when it is not.
  std::string why(const std::string& rel, std::string_view text) const;
  // The holders the project's license files name (lower-case words, without years, e-mail addresses and
  // words such as Inc or Group); empty when the root has no license file that names one.
  const std::vector<std::vector<std::string>>& project_holders() const { return holders_; }

 private:
  std::vector<std::string> bases_;  // include folders relative to the root: "" (the root), "include", ...
  std::vector<std::vector<std::string>> holders_;
};

// The copyright holders that the first lines of a text name, one line each: "The Khronos Group Inc." from
// "// Copyright (c) 2008-2020 The Khronos Group Inc.".
std::vector<std::string> copyright_holders(std::string_view text, std::size_t lines = 60);

}  // namespace emberlint::discovery
