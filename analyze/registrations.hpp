// The registrations model's facts of one unit (analyze/model_registrations.cpp): the registrations the
// backend folders make, the creators they name and what those do, and the configured enum's enumerators.
// analyze/model_registrations_walk.cpp walks a unit for them; model_registrations.cpp merges every unit's
// into the matrix.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "analyze/model.hpp"

namespace emberlint::analyze::registrations {

// An argument that names an op (or a device): what it is, as far as the code says.
struct Named {
  enum class Kind { enumerator, string, identifier, computed, absent };
  Kind kind = Kind::absent;
  std::string name;       // the enumerator, string or identifier (last part of a qualified name)
  std::string enum_name;  // enumerator: the enum's qualified name
  std::string text;       // as written
  Place declared;         // an op class named by its static member (`Conv::Name()`): the class
};

// The creator an argument names: a class (`new C`, `&object_of_C`, a class name) or a function.
struct CreatorRef {
  std::string usr;   // resolved in the unit, else empty
  std::string name;  // as written (a macro argument's tokens are resolved by name when merging)
};

struct Registration {
  std::string backend;
  std::size_t form = 0;  // index into the backend's forms
  Named op;
  CreatorRef creator;
  std::string written;  // "REG(\"Add\", DEVICE_CPU, AddOp)"
  Place at;
  unsigned offset = 0;    // of `at` in its file, to find the member function around it
  std::string owner_usr;  // the class whose member function (a constructor, a method) makes the registration
  // A registration under `if (dynamic_cast<P*>(&platform))` (or after `dynamic_cast<P&>(platform)` in its
  // block) is made only on platforms of class P: P's USR and the cast as written.
  std::string guard_usr, guard;
};

// What a creator does when it is asked for the op's execution: a function's body, or a class's overrides.
struct CreatorBody {
  std::string usr, name, qualified;  // name: as spelled
  std::string owner_usr;             // a method: its class; empty for a function
  Cell cell;                         // stub / fallback / native, with the place and reason
};

struct CreatorClass {
  std::string usr, name, qualified;
  Place declared;
  std::vector<std::string> bases;  // USRs
};

struct RegistrationFacts : UnitFacts {
  bool found = false;  // the configured enum
  Place declared;
  std::vector<Enumerator> enumerators;
  std::set<std::string> enum_names;
  std::vector<Registration> registrations;
  std::vector<CreatorBody> bodies;
  std::vector<CreatorClass> classes;
  // What the backend folders call, construct and name, for the warning of a form that matches nothing.
  std::map<std::string, std::set<std::string>> calls, types, variables;  // backend -> names
  std::set<std::string> backends_seen;                                   // a backend file was in the unit
};

// The last part of a qualified name ("Device::GPU" -> "GPU").
std::string last_part(const std::string& name);

// One unit's facts, from the configured forms (ops_interface.registrations) of every backend.
std::unique_ptr<RegistrationFacts> walk_unit(const ModelContext& context, CXTranslationUnit tu);

}  // namespace emberlint::analyze::registrations
