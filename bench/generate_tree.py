#!/usr/bin/env python3
"""Writes a synthetic code base in ember's frontend/backend shape, for emberlint's benchmarks and scale tests.

    bench/generate_tree.py OUT [--units N] [--backends eigen,blas,opencl] [--shared K] [--functions F]
                               [--light] [--age SECONDS] [--force]

OUT gets:
  .emberlint.json              layers (frontend, one per backend), libraries, tensor types, scalar extractors
  build/compile_commands.json  one entry per translation unit (absolute paths, `-isystem vendor`)
  vendor/                      small stand-ins for Eigen, cblas.h and CL/cl.h: no real library is needed
  frontend/include/ember/      tensor.hpp (a Tensor with operators and conversions) and K shared headers
  frontend/src/unit_NNNN.cpp   about half of the units
  backends/<b>/unit_NNNN.cpp   the rest, round robin over the backends, each using its library
  expected_findings.json       what emberlint must report: {"units", "counts": {code: n}, "findings": [{"file",
                               "line", "code"}, ...]} sorted by file, line and code

Unit i includes shared header i % K, so changing shared_0.hpp re-analyzes about N/K units. Findings, all
deterministic: every 7th frontend unit includes <Eigen/Core> (EL100), every 5th adds tensors with `+`
(EL200), every 11th casts a tensor to double (EL300); backend units are clean. (Frontend units are the even
numbers, so these are the units whose number is a multiple of 14, 10 and 22.) The same arguments always
give the same bytes.

--light writes the same shape and the same findings without the standard library's heavy headers: the
tensor keeps a pointer and a size instead of a std::vector, the shared headers a C array instead of
std::array/std::string_view, and the units use no <algorithm>, <map> or <vector>, so that only <cstdint> is
left. With libclang 14 and -std=c++20 that cuts a unit's parse from about 0.3 s (mostly <string>,
<algorithm> and <map> with their C++20 ranges and concepts) to a few hundredths, so a 2,000-unit tree lints
in minutes on two cores: the scale test and benchmark use it to measure emberlint, not libstdc++. Every file's mtime is set SECONDS (default 3600) in the past, so that a run started right
after the generator caches every unit (emberlint does not cache a file modified during its parse).

Standard library only; N = 2000 takes about a second.
"""

import argparse
import json
import os
import shutil
import sys
import time

LIBRARIES = {
    "eigen": {
        "library": "Eigen",
        "config": {"headers": ["Eigen/**"], "namespaces": ["Eigen"]},
        "include": "<Eigen/Core>",
        "use": "Eigen::MatrixXd m(rows, 1);\n  return static_cast<double>(m.rows()) * scale;",
    },
    "blas": {
        "library": "BLAS",
        "config": {"headers": ["cblas.h"], "symbols": ["cblas_*"]},
        "include": "<cblas.h>",
        "use": "double x[2] = {scale, 1.0};\n  return cblas_ddot(2, x, 1, x, 1) + rows;",
    },
    "opencl": {
        "library": "OpenCL",
        "config": {"headers": ["CL/**"], "symbols": ["cl[A-Z]*"]},
        "include": "<CL/cl.h>",
        "use": "cl_uint n = 0;\n  clGetPlatformIDs(0, nullptr, &n);\n  return scale * n + rows;",
    },
}

VENDOR = {
    "vendor/Eigen/Core": """#pragma once
// Stand-in for Eigen: enough declarations for the generated backends.
namespace Eigen {
class MatrixXd {
 public:
  MatrixXd(long rows, long cols) : rows_(rows), cols_(cols) {}
  long rows() const { return rows_; }
  long cols() const { return cols_; }

 private:
  long rows_, cols_;
};
}  // namespace Eigen
""",
    "vendor/cblas.h": """#pragma once
// Stand-in for cblas.h.
extern "C" double cblas_ddot(int n, const double* x, int incx, const double* y, int incy);
""",
    "vendor/CL/cl.h": """#pragma once
// Stand-in for CL/cl.h.
typedef unsigned int cl_uint;
typedef struct _cl_platform_id* cl_platform_id;
extern "C" int clGetPlatformIDs(cl_uint n, cl_platform_id* platforms, cl_uint* count);
""",
}

# The tensor class: the default over a std::vector; --light over a pointer and a size, with only <cstdint>.
TENSOR_PARTS = {
    False: {
        "includes": "#include <cstdint>\n#include <string>\n#include <vector>\n",
        "constructor": "explicit Tensor(std::vector<double> values) : values_(std::move(values)) {}",
        "size": "static_cast<std::int64_t>(values_.size())",
        "first": "values_.empty() ? 0.0 : values_.front()",
        "members": "std::vector<double> values_;",
    },
    True: {
        "includes": "#include <cstdint>\n",
        "constructor": "Tensor(const double* values, std::int64_t size) : values_(values), size_(size) {}",
        "size": "size_",
        "first": "size_ == 0 ? 0.0 : values_[0]",
        "members": "const double* values_ = nullptr;\n  std::int64_t size_ = 0;",
    },
}


def tensor_header(light):
    p = TENSOR_PARTS[light]
    return f"""#pragma once
// The generated tree's tensor: operators and conversions for EL200/EL300 to find, `ops` as the API to call.
{p["includes"]}
namespace ember {{
class Tensor {{
 public:
  Tensor() = default;
  {p["constructor"]}
  std::int64_t size() const {{ return {p["size"]}; }}
  double item() const {{ return {p["first"]}; }}
  explicit operator double() const {{ return {p["first"]}; }}

 private:
  {p["members"]}
}};
"""


TENSOR_API = """
Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, double b);

namespace ops {
Tensor add(const Tensor& a, const Tensor& b);
Tensor multiply(const Tensor& a, double b);
Tensor sum(const Tensor& a);
}  // namespace ops
}  // namespace ember
"""


def shared_header(k, light):
    if light:
        includes, names = "", f'constexpr const char* kNames[3] = {{"alpha{k}", "beta{k}", "gamma{k}"}};'
        size = "static_cast<std::int64_t>(sizeof kNames / sizeof kNames[0])"
    else:
        includes = "\n#include <array>\n#include <string_view>\n"
        names = (f'constexpr std::array<std::string_view, 3> kNames = {{"alpha{k}", "beta{k}", '
                 f'"gamma{k}"}};')
        size = "static_cast<std::int64_t>(kNames.size())"
    return f"""#pragma once
// Shared header {k}: included by every unit whose number is {k} modulo the number of shared headers.
#include <ember/tensor.hpp>
{includes}
namespace ember::shared{k} {{
{names}
inline std::int64_t weight(std::int64_t n) {{ return n * {k + 2} + {size}; }}
Tensor scaled(const Tensor& t, double factor);
}}  // namespace ember::shared{k}
"""


def frontend_unit(path, i, k, functions, light):
    """The unit's text and its expected findings: (line, code) pairs."""
    lines = [f"// Generated frontend unit {i}.", "#include <ember/tensor.hpp>",
             f"#include <ember/shared_{k}.hpp>"]
    findings = []

    def add(text, code=None):
        lines.append(text)
        if code:
            findings.append({"file": path, "line": len(lines), "code": code})

    if i % 7 == 0:
        add("#include <Eigen/Core>  // EL100: a backend library in the frontend", "EL100")
    if not light:
        lines += ["", "#include <algorithm>", "#include <map>"]
    lines += ["", f"namespace gen::unit{i} {{", ""]
    for f in range(functions):
        if light:  # a C array indexed 0..1 instead of a std::map keyed by f
            weights, key = f"  const double weights[2] = {{{f}.0, {f}.5}};", f % 2
        else:
            weights, key = f"  std::map<int, double> weights{{{{{f}, {f}.5}}}};", f
        lines += [
            f"ember::Tensor step{f}(const ember::Tensor& a, const ember::Tensor& b) {{",
            weights,
            f"  ember::Tensor c = ember::ops::add(a, ember::ops::multiply(b, weights[{key}]));",
            f"  return ember::shared{k}::scaled(c, static_cast<double>(ember::shared{k}::weight({f})));",
            "}", ""]
    if i % 5 == 0:
        lines.append("ember::Tensor plus(const ember::Tensor& a, const ember::Tensor& b) {")
        add("  return a + b;  // EL200", "EL200")
        lines += ["}", ""]
    if i % 11 == 0:
        lines.append("double to_double(const ember::Tensor& t) {")
        add("  return static_cast<double>(t);  // EL300", "EL300")
        lines += ["}", ""]
    lines += [f"}}  // namespace gen::unit{i}", ""]
    return "\n".join(lines), findings


def backend_unit(i, k, backend, functions, light):
    lib = LIBRARIES[backend]
    lines = [f"// Generated {backend} backend unit {i}.", f"#include {lib['include']}", "",
             f"#include <ember/shared_{k}.hpp>", ""]
    if not light:
        lines += ["#include <algorithm>", "#include <vector>", ""]
    lines += [f"namespace gen::{backend}{i} {{", ""]
    for f in range(functions):
        lines += [f"double kernel{f}(long rows, double scale) {{", f"  {lib['use']}", "}", ""]
    lines += [f"}}  // namespace gen::{backend}{i}", ""]
    return "\n".join(lines)


def config(backends):
    return {
        "layers": {
            "frontend": ["frontend/**"],
            "backends": {b: [f"backends/{b}/**"] for b in backends},
        },
        "libraries": {
            LIBRARIES[b]["library"]: dict(backend=b, **LIBRARIES[b]["config"]) for b in backends
        },
        "tensor_types": ["ember::Tensor"],
        "rules": {"EL200": {"ops_namespace": "ember::ops"}},
        "scalar_extractors": ["ember::Tensor::item"],
        "exclude": ["build/**"],
        "compile_flags": ["-std=c++20", "-Ifrontend/include", "-isystem", "vendor"],
    }


def generate(out, units, backends, shared, functions, light):
    files = {}  # relative path -> text
    files[".emberlint.json"] = "// Generated by bench/generate_tree.py.\n" + json.dumps(
        config(backends), indent=2) + "\n"
    files.update(VENDOR)
    files["frontend/include/ember/tensor.hpp"] = tensor_header(light) + TENSOR_API
    for k in range(shared):
        files[f"frontend/include/ember/shared_{k}.hpp"] = shared_header(k, light)
    sources, findings = [], []
    for i in range(units):
        k = i % shared
        if i % 2 == 0:
            path = f"frontend/src/unit_{i:04d}.cpp"
            files[path], unit_findings = frontend_unit(path, i, k, functions, light)
            findings += unit_findings
        else:
            backend = backends[(i // 2) % len(backends)]
            path = f"backends/{backend}/unit_{i:04d}.cpp"
            files[path] = backend_unit(i, k, backend, functions, light)
        sources.append(path)
    database = [{
        "directory": out,
        "file": os.path.join(out, path),
        "arguments": ["c++", "-std=c++20", "-Ifrontend/include", "-isystem", "vendor", "-c",
                      os.path.join(out, path)],
    } for path in sources]
    files["build/compile_commands.json"] = json.dumps(database, indent=1) + "\n"
    findings.sort(key=lambda f: (f["file"], f["line"], f["code"]))
    counts = {}
    for f in findings:
        counts[f["code"]] = counts.get(f["code"], 0) + 1
    files["expected_findings.json"] = json.dumps(
        {"units": units, "counts": dict(sorted(counts.items())), "findings": findings}, indent=1) + "\n"
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="the folder to write (created; must be empty unless --force)")
    parser.add_argument("--units", type=int, default=24, help="translation units (default 24)")
    parser.add_argument("--backends", default="eigen,blas,opencl", help="comma-separated: eigen, blas, opencl")
    parser.add_argument("--shared", type=int, default=4, help="shared headers (default 4)")
    parser.add_argument("--functions", type=int, default=8, help="functions per unit (default 8)")
    parser.add_argument("--light", action="store_true",
                        help="no heavy standard library headers (same shape and findings, parses ~10x faster)")
    parser.add_argument("--age", type=float, default=3600, help="seconds to move every mtime back (default 3600)")
    parser.add_argument("--force", action="store_true", help="replace OUT if it exists")
    args = parser.parse_args()

    backends = [b for b in args.backends.split(",") if b]
    unknown = [b for b in backends if b not in LIBRARIES]
    if unknown or not backends:
        parser.error(f"--backends: unknown {', '.join(unknown) or 'nothing'} (known: {', '.join(LIBRARIES)})")
    if args.units < 1 or args.shared < 1 or args.functions < 0:
        parser.error("--units and --shared must be at least 1, --functions at least 0")
    out = os.path.abspath(args.out)
    if os.path.exists(out) and os.listdir(out):
        if not args.force:
            parser.error(f"{out}: exists and is not empty (use --force to replace it)")
        shutil.rmtree(out)

    files = generate(out, args.units, backends, args.shared, args.functions, args.light)
    stamp = time.time() - args.age
    for rel, text in files.items():
        path = os.path.join(out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.utime(path, (stamp, stamp))
    print(f"wrote {args.units} units ({len(files)} files) to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
