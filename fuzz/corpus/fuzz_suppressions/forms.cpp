// Every suppression form, and text that only looks like one.
int a = 1;  // emberlint: ignore[EL200, tensor-*] reason here
// emberlint: ignore-next-line[EL3??]
int b = 2;
/* emberlint: begin-ignore[EL101] */
int c = 3;  // NOLINT(emberlint-EL200, bugprone-*)
// NOLINTNEXTLINE(emberlint-frontend-*)
int d = 4;
// NOLINTBEGIN(*)
int e = 5;  // NOLINT
// NOLINTEND(*)
// emberlint: end-ignore
// emberlint: ignore-file[EL001]
int f = 6;  // EMBERLINT: IGNORE
const char* s = "// emberlint: ignore[EL200] in a string";
const char* r = R"x(// NOLINT(emberlint-EL200) in a raw string)x";
char q = '"';  // emberlint: bogus
int n = 1'000'000;  // emberlint: ignore[
// emberlint: ignore[]
// emberlint: end-ignore
/* emberlint: begin-ignore
