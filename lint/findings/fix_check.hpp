// Fixes are offered only when they are known to work: the unit is parsed again with them applied, and a fix
// whose result does not compile, or whose calls name something else from where they stand, is withdrawn
// (the finding stays, saying why it has no fix).
#pragma once

#include <string>
#include <vector>

#include "lint/libclang/clang.hpp"
#include "lint/compile/compile_db.hpp"
#include "lint/diagnostic.hpp"

namespace emberlint {

// How many fixes of one unit are checked one by one when they fail together; past it, all are withdrawn.
constexpr std::size_t kFixesCheckedAlone = 12;

// Checks the fixes of a unit's findings by reparsing it with them applied, all together: an error or a
// misnamed call inside one fix's text withdraws that fix, and the rest are checked again; a problem outside
// every fix's text has each fix checked alone (up to kFixesCheckedAlone). `unit_has_errors`: the unit did
// not parse cleanly, so no fix can be checked and every fix is withdrawn.
void check_fixes(const clang::Index& index, const CompileCommand& command, const std::string& resource_dir,
                 bool unit_has_errors, std::vector<Diagnostic>& diagnostics);

}  // namespace emberlint
