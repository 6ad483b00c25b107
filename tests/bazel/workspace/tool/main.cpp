#include <cstdio>

int main() {
  std::puts("tool");
  return 0;
}
