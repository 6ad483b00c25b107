// Prints "<backend> <source>" of the current backend choice: the child process of the selection tests.
#include <cstdio>
#include <exception>

#include "ember/selection.hpp"

int main() {
  try {
    const auto choice = ember::current_backend_choice();
    std::printf("%s %s\n", choice.name.c_str(), choice.source.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
