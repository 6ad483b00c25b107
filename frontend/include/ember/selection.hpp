// Which backend creation ops use: scope > explicit call > EMBER_BACKEND > persisted choice > "eigen".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ember {

class Backend;

enum class Persist : bool { no = false, yes = true };

// Names of the backends compiled in, in registration order.
std::vector<std::string> registered_backends();
// The registered backend called `name`; BackendError listing the registered names otherwise.
Backend& get_backend(std::string_view name);
// The backend creation ops use now, by the precedence above.
Backend& current_backend();
std::string current_backend_name();

// Why the current backend is the current one: "scope", "explicit", "environment", "persisted" or
// "default", with the name.
struct BackendChoice {
  std::string name;
  std::string source;
};
BackendChoice current_backend_choice();

// The explicit choice for this process. With Persist::yes it is also written (atomically) to
// $XDG_CONFIG_HOME/ember/config.json (or ~/.config/ember/config.json) for later processes.
void set_backend(std::string_view name, Persist persist = Persist::no);
// Forgets the explicit choice (the environment and the persisted file apply again).
void reset_backend();
// The persisted choice's path, whether or not the file exists.
std::string persisted_config_path();

// Makes `name` the current backend of this thread until the scope ends; scopes nest.
class BackendScope {
 public:
  explicit BackendScope(std::string_view name);
  ~BackendScope();
  BackendScope(const BackendScope&) = delete;
  BackendScope& operator=(const BackendScope&) = delete;
};

}  // namespace ember
