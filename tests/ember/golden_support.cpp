#include "golden_support.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <span>
#include <sstream>

namespace ember::golden {

namespace {

template <class T>
T element(const json& v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v.get<bool>();
  } else if constexpr (std::is_same_v<T, half>) {
    return half(static_cast<float>(decode_float(v)));
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(decode_float(v));
  } else {
    return static_cast<T>(v.get<std::int64_t>());
  }
}

std::vector<Case> load(const std::string& category) {
  const std::string path = std::string(EMBER_TEST_DATA_DIR) + "/" + category + ".json";
  std::vector<Case> out;
  auto fail = [&](const std::string& why) {
    out.assign(1, Case{category, "fixture_unusable", path + ": " + why, json{}});
    return out;
  };
  std::ifstream in(path);
  if (!in) return fail("cannot open (run tests/golden/generate.py)");
  json doc = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.contains("cases") || !doc["cases"].is_array()) return fail("not a fixture");
  std::map<std::string, int> seen;
  for (auto& c : doc["cases"]) {
    const std::string op = c.value("op", "unnamed");
    out.push_back(Case{category, op + "_" + std::to_string(seen[op]++), "", c});
  }
  if (out.empty()) return fail("holds no cases");
  return out;
}

std::int64_t numel(const Shape& s) {
  std::int64_t n = 1;
  for (auto d : s) n *= d;
  return n;
}

}  // namespace

const std::string& Case::op() const {
  static const std::string none = "none";
  return data.is_object() ? data["op"].get_ref<const std::string&>() : none;
}

const std::vector<Case>& cases(const std::string& category) {
  static std::map<std::string, std::vector<Case>> cache;
  auto it = cache.find(category);
  if (it == cache.end()) it = cache.emplace(category, load(category)).first;
  return it->second;
}

std::int64_t HostTensor::size() const {
  return numel(shape);
}

DType dtype_named(const std::string& name) {
  return ops::dtype_from_name(name);
}

double decode_float(const json& v) {
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    if (s == "-0.0") return -0.0;
    throw std::runtime_error("fixture: bad float literal " + s);
  }
  if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
  return v.get<double>();
}

Tensor make_tensor(const json& t) {
  const DType dtype = dtype_named(t.at("dtype").get<std::string>());
  const Shape shape = t.at("shape").get<Shape>();
  const json& data = t.at("data");
  return visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    const std::size_t n = data.size();
    auto buffer = std::make_unique<T[]>(n == 0 ? 1 : n);
    for (std::size_t k = 0; k < n; ++k) buffer[k] = element<T>(data[k]);
    return ops::from_data<T>(std::span<const T>(buffer.get(), n), shape);
  });
}

Scalar make_scalar(const json& s) {
  const json& v = s.at("scalar");
  if (v.is_boolean()) return Scalar(v.get<bool>());
  if (v.is_number_integer()) return Scalar(v.get<std::int64_t>());
  return Scalar(decode_float(v));
}

HostTensor decode_expected(const json& t) {
  HostTensor h;
  h.dtype = dtype_named(t.at("dtype").get<std::string>());
  h.shape = t.at("shape").get<Shape>();
  for (const auto& v : t.at("data")) {
    if (h.floating()) {
      h.f.push_back(decode_float(v));
    } else {
      h.i.push_back(v.is_boolean() ? static_cast<std::int64_t>(v.get<bool>()) : v.get<std::int64_t>());
    }
  }
  return h;
}

std::vector<Arg> make_args(const json& args) {
  std::vector<Arg> out;
  for (const auto& a : args) {
    Arg arg;
    if (a.is_array()) {
      for (const auto& t : a) arg.list.push_back(make_tensor(t));
    } else if (a.contains("scalar")) {
      arg.scalar = make_scalar(a);
      arg.is_scalar = true;
    } else {
      arg.tensor = make_tensor(a);
    }
    out.push_back(std::move(arg));
  }
  return out;
}

HostTensor host(const Tensor& x) {
  HostTensor h;
  h.dtype = x.dtype();
  h.shape = x.shape();
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const auto values = ops::to_host<T>(x);
    for (const auto& v : values) {
      if constexpr (std::is_same_v<T, half>) {
        h.f.push_back(static_cast<float>(v));
      } else if constexpr (std::is_floating_point_v<T>) {
        h.f.push_back(v);
      } else {
        h.i.push_back(static_cast<std::int64_t>(v));
      }
    }
  });
  return h;
}

HostTensor host_bool(bool v) {
  return HostTensor{DType::bool_, {}, {}, {v ? 1 : 0}};
}

HostTensor host_int64(std::int64_t v) {
  return HostTensor{DType::int64, {}, {}, {v}};
}

HostTensor host_scalar(const Scalar& s) {
  if (s.is_floating()) return HostTensor{DType::float64, {}, {s.as_double()}, {}};
  if (s.is_bool()) return host_bool(s.to<bool>());
  return host_int64(s.as_int());
}

Results one(const Tensor& t) {
  return {host(t)};
}

Results many(const std::vector<Tensor>& ts) {
  Results out;
  for (const auto& t : ts) out.push_back(host(t));
  return out;
}

Results expected_results(const json& expected) {
  Results out;
  if (expected.is_array()) {
    for (const auto& t : expected) out.push_back(decode_expected(t));
  } else {
    out.push_back(decode_expected(expected));
  }
  return out;
}

Tensor tensor_from_bytes(const json& t) {
  const DType dtype = dtype_named(t.at("dtype").get<std::string>());
  const json& data = t.at("data");
  return visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    auto buffer = std::make_unique<T[]>(data.size() + 1);
    for (std::size_t k = 0; k < data.size(); ++k) buffer[k] = element<T>(data[k]);
    return ops::from_bytes(buffer.get(), data.size() * sizeof(T), t.at("shape").get<Shape>(), dtype);
  });
}

Axes axes_of(const json& kw, const char* key) {
  return maybe<std::vector<std::int64_t>>(kw, key);
}

std::optional<DType> dtype_of(const json& kw) {
  const auto name = maybe<std::string>(kw, "dtype");
  return name ? std::optional<DType>(dtype_named(*name)) : std::nullopt;
}

std::optional<Scalar> scalar_of(const json& kw, const char* key) {
  if (!kw.contains(key) || kw[key].is_null()) return std::nullopt;
  return make_scalar(json{{"scalar", kw[key]}});
}

Shape shape_of(const json& kw) {
  return kw.at("shape").get<Shape>();
}

PadMode pad_mode(const json& kw) {
  const std::string m = get<std::string>(kw, "mode", "constant");
  return m == "edge" ? PadMode::edge : m == "reflect" ? PadMode::reflect : PadMode::constant;
}

std::vector<ops::Slice> slices_of(const json& kw) {
  std::vector<ops::Slice> out;
  for (const auto& s : kw.at("slices")) {
    out.push_back({s[0].is_null() ? std::nullopt : std::optional<std::int64_t>(s[0].get<std::int64_t>()),
                   s[1].is_null() ? std::nullopt : std::optional<std::int64_t>(s[1].get<std::int64_t>()),
                   s[2].get<std::int64_t>()});
  }
  return out;
}

::testing::AssertionResult same_tensor(const HostTensor& got, const HostTensor& expected, Tol tol,
                                       bool signed_zeros, const std::string& what) {
  if (got.dtype != expected.dtype || got.shape != expected.shape) {
    return ::testing::AssertionFailure()
           << what << ": got " << ops::dtype_name(got.dtype) << " " << shape_str(got.shape) << ", expected "
           << ops::dtype_name(expected.dtype) << " " << shape_str(expected.shape);
  }
  std::ostringstream bad;
  bad.precision(17);
  int mismatches = 0;
  for (std::int64_t k = 0; k < expected.size(); ++k) {
    bool ok = true;
    if (!expected.floating()) {
      ok = got.i[k] == expected.i[k];
    } else {
      const double g = got.f[k], e = expected.f[k];
      if (std::isnan(e) || std::isnan(g)) {
        ok = std::isnan(e) && std::isnan(g);
      } else if (std::isinf(e) || std::isinf(g)) {
        ok = g == e;
      } else {
        ok = std::fabs(g - e) <= tol.atol + tol.rtol * std::fabs(e);
        if (ok && signed_zeros && e == 0.0 && g == 0.0) ok = std::signbit(g) == std::signbit(e);
      }
    }
    if (!ok && ++mismatches <= 6)
      bad << "\n  [" << k << "] got " << got.at(k) << ", expected " << expected.at(k);
    if (!ok && mismatches <= 6 && expected.floating() && got.f[k] == 0.0) {
      bad << (std::signbit(got.f[k]) ? " (got -0.0)" : " (got +0.0)");
    }
  }
  if (mismatches == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << what << ": " << mismatches << " of " << expected.size() << " elements differ (rtol " << tol.rtol
         << ", atol " << tol.atol << ")" << bad.str();
}

std::string error_class(const Error& e) {
  if (dynamic_cast<const ShapeError*>(&e)) return "ShapeError";
  if (dynamic_cast<const DTypeError*>(&e)) return "DTypeError";
  if (dynamic_cast<const ValueError*>(&e)) return "ValueError";
  if (dynamic_cast<const IndexError*>(&e)) return "IndexError";
  if (dynamic_cast<const LinAlgError*>(&e)) return "LinAlgError";
  if (dynamic_cast<const DeviceError*>(&e)) return "DeviceError";
  if (dynamic_cast<const BackendError*>(&e)) return "BackendError";
  return "Error";
}

std::string describe_args(const json& c) {
  std::string s =
      "args " + c.value("args", json::array()).dump() + " kwargs " + c.value("kwargs", json{}).dump();
  if (s.size() > 600) s = s.substr(0, 600) + "...";
  return s;
}

namespace {

// Batched matrix view of a host tensor of shape (..., rows, cols).
struct Mat {
  const HostTensor& t;
  std::int64_t rows, cols;
  explicit Mat(const HostTensor& h)
      : t(h),
        rows(h.shape.size() >= 2 ? h.shape[h.shape.size() - 2] : 1),
        cols(h.shape.empty() ? 1 : h.shape.back()) {}
  std::int64_t batches() const { return rows * cols == 0 ? 0 : t.size() / (rows * cols); }
  double operator()(std::int64_t b, std::int64_t i, std::int64_t j) const {
    return t.at((b * rows + i) * cols + j);
  }
};

double max_abs(const HostTensor& h) {
  double m = 1.0;
  for (std::int64_t k = 0; k < h.size(); ++k) m = std::max(m, std::fabs(h.at(k)));
  return m;
}

::testing::AssertionResult same_layout(const std::vector<HostTensor>& got,
                                       const std::vector<HostTensor>& expected, const char* what) {
  if (got.size() != expected.size()) {
    return ::testing::AssertionFailure()
           << what << ": " << got.size() << " results, expected " << expected.size();
  }
  for (std::size_t k = 0; k < got.size(); ++k) {
    if (got[k].dtype != expected[k].dtype || got[k].shape != expected[k].shape) {
      return ::testing::AssertionFailure()
             << what << " result " << k << ": got " << ops::dtype_name(got[k].dtype) << " "
             << shape_str(got[k].shape) << ", expected " << ops::dtype_name(expected[k].dtype) << " "
             << shape_str(expected[k].shape);
    }
  }
  return ::testing::AssertionSuccess();
}

// Columns (by_columns) or rows of every batch of m are orthonormal within `bound`.
::testing::AssertionResult orthonormal(const HostTensor& m, bool by_columns, double bound, const char* what) {
  const Mat x(m);
  const std::int64_t count = by_columns ? x.cols : x.rows, len = by_columns ? x.rows : x.cols;
  for (std::int64_t b = 0; b < x.batches(); ++b) {
    for (std::int64_t p = 0; p < count; ++p) {
      for (std::int64_t q = 0; q < count; ++q) {
        double dot = 0.0;
        for (std::int64_t k = 0; k < len; ++k)
          dot += by_columns ? x(b, k, p) * x(b, k, q) : x(b, p, k) * x(b, q, k);
        if (std::fabs(dot - (p == q ? 1.0 : 0.0)) > bound) {
          return ::testing::AssertionFailure()
                 << what << " not orthonormal: batch " << b << " (" << p << ", " << q << ") product " << dot;
        }
      }
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace

::testing::AssertionResult check_qr(const HostTensor& a, const std::vector<HostTensor>& got,
                                    const std::vector<HostTensor>& expected, Tol tol) {
  if (auto r = same_layout(got, expected, "qr"); !r) return r;
  const Mat A(a), Q(got[0]), R(got[1]);
  const double bound = tol.atol + tol.rtol * max_abs(a) * static_cast<double>(A.cols + A.rows);
  for (std::int64_t b = 0; b < A.batches(); ++b) {
    for (std::int64_t i = 0; i < A.rows; ++i) {
      for (std::int64_t j = 0; j < A.cols; ++j) {
        double qr = 0.0;
        for (std::int64_t l = 0; l < Q.cols; ++l) qr += Q(b, i, l) * R(b, l, j);
        if (std::fabs(qr - A(b, i, j)) > bound) {
          return ::testing::AssertionFailure()
                 << "qr: (q @ r)[" << b << ", " << i << ", " << j << "] = " << qr << ", a = " << A(b, i, j);
        }
        if (i < R.rows && j < i && std::fabs(R(b, i, j)) > bound) {
          return ::testing::AssertionFailure() << "qr: r is not upper triangular at " << i << ", " << j;
        }
      }
    }
    for (std::int64_t i = 0; i < std::min(R.rows, R.cols); ++i) {
      if (R(b, i, i) < -bound)
        return ::testing::AssertionFailure() << "qr: diag(r) < 0 at " << i << ": " << R(b, i, i);
    }
  }
  if (auto r = orthonormal(got[0], true, bound, "qr: q's columns"); !r) return r;
  HostTensor abs_got = got[1], abs_expected = expected[1];  // r is unique up to the signs of its rows
  for (auto& v : abs_got.f) v = std::fabs(v);
  for (auto& v : abs_expected.f) v = std::fabs(v);
  return same_tensor(abs_got, abs_expected, Tol{tol.rtol, bound}, false, "qr: |r|");
}

::testing::AssertionResult check_svd(const HostTensor& a, const std::vector<HostTensor>& got,
                                     const std::vector<HostTensor>& expected, Tol tol) {
  if (auto r = same_layout(got, expected, "svd"); !r) return r;
  const double bound = tol.atol + tol.rtol * max_abs(a) * static_cast<double>(a.shape.back() + 2);
  const std::size_t si = got.size() == 1 ? 0 : 1;
  if (auto r = same_tensor(got[si], expected[si], Tol{tol.rtol, bound}, false, "svd: s"); !r) return r;
  if (got.size() == 1) return ::testing::AssertionSuccess();
  if (auto r = orthonormal(got[0], true, bound, "svd: u's columns"); !r) return r;
  if (auto r = orthonormal(got[2], false, bound, "svd: vt's rows"); !r) return r;
  const Mat A(a), U(got[0]), V(got[2]);
  const std::int64_t k = std::min(A.rows, A.cols);
  for (std::int64_t b = 0; b < A.batches(); ++b) {
    for (std::int64_t i = 0; i < A.rows; ++i) {
      for (std::int64_t j = 0; j < A.cols; ++j) {
        double usv = 0.0;
        for (std::int64_t l = 0; l < k; ++l) usv += U(b, i, l) * got[1].at(b * k + l) * V(b, l, j);
        if (std::fabs(usv - A(b, i, j)) > bound) {
          return ::testing::AssertionFailure() << "svd: (u diag(s) vt)[" << b << ", " << i << ", " << j
                                               << "] = " << usv << ", a = " << A(b, i, j);
        }
      }
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult check_eigh(const HostTensor& a, const std::vector<HostTensor>& got,
                                      const std::vector<HostTensor>& expected, Tol tol) {
  if (auto r = same_layout(got, expected, "eigh"); !r) return r;
  const double bound = tol.atol + tol.rtol * max_abs(a) * static_cast<double>(a.shape.back() + 2);
  if (auto r = same_tensor(got[0], expected[0], Tol{tol.rtol, bound}, false, "eigh: eigenvalues"); !r)
    return r;
  if (auto r = orthonormal(got[1], true, bound, "eigh: eigenvectors"); !r) return r;
  const Mat A(a), V(got[1]);
  const std::int64_t n = A.rows;
  for (std::int64_t b = 0; b < A.batches(); ++b) {
    for (std::int64_t l = 0; l < n; ++l) {
      for (std::int64_t i = 0; i < n; ++i) {
        double av = 0.0;
        for (std::int64_t j = 0; j < n; ++j) av += A(b, i, j) * V(b, j, l);
        const double wv = got[0].at(b * n + l) * V(b, i, l);
        if (std::fabs(av - wv) > bound) {
          return ::testing::AssertionFailure()
                 << "eigh: (a v - w v)[" << b << ", " << i << ", " << l << "] = " << av - wv;
        }
      }
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace ember::golden
