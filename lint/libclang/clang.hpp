// The one place that owns libclang handles: CXIndex, CXTranslationUnit and CXString get RAII wrappers here,
// so nothing else in emberlint ever disposes of a libclang object by hand.
#pragma once

#include <clang-c/Index.h>

#include <string>
#include <utility>

namespace emberlint::clang {

// Copies a CXString into a std::string and disposes of it.
inline std::string take(CXString s) {
  const char* c = clang_getCString(s);
  std::string out = c ? c : "";
  clang_disposeString(s);
  return out;
}

// An index keeps the precompiled preambles of its units (UnitParse::skip_preamble_bodies, the language
// server's warm units) in memory: libclang would write them to the temporary folder (preamble-*.pch, one per
// unit: 15 to 21 MB for emberlint's own), and it aborts the whole process when that folder is full. In memory
// they cost what they would in the page cache, and a run killed by a signal leaves none behind.
class Index {
 public:
  Index() : index_(create()) {}
  ~Index() { clang_disposeIndex(index_); }
  Index(const Index&) = delete;
  Index& operator=(const Index&) = delete;
  CXIndex get() const { return index_; }

 private:
  static CXIndex create() {
#if CINDEX_VERSION_MINOR >= 64
    CXIndexOptions options{};
    options.Size = sizeof(CXIndexOptions);
    options.StorePreamblesInMemory = 1;
    if (CXIndex index = clang_createIndexWithOptions(&options)) return index;
#endif
    return clang_createIndex(/*excludeDeclarationsFromPCH=*/0, /*displayDiagnostics=*/0);
  }
  CXIndex index_;
};

class TranslationUnit {
 public:
  TranslationUnit() = default;
  explicit TranslationUnit(CXTranslationUnit tu) : tu_(tu) {}
  ~TranslationUnit() {
    if (tu_) clang_disposeTranslationUnit(tu_);
  }
  TranslationUnit(TranslationUnit&& o) noexcept : tu_(std::exchange(o.tu_, nullptr)) {}
  TranslationUnit& operator=(TranslationUnit&& o) noexcept {
    std::swap(tu_, o.tu_);
    return *this;
  }
  TranslationUnit(const TranslationUnit&) = delete;
  TranslationUnit& operator=(const TranslationUnit&) = delete;
  CXTranslationUnit get() const { return tu_; }
  explicit operator bool() const { return tu_ != nullptr; }

 private:
  CXTranslationUnit tu_ = nullptr;
};

class Diagnostic {
 public:
  explicit Diagnostic(CXDiagnostic d) : d_(d) {}
  ~Diagnostic() { clang_disposeDiagnostic(d_); }
  Diagnostic(const Diagnostic&) = delete;
  Diagnostic& operator=(const Diagnostic&) = delete;
  CXDiagnosticSeverity severity() const { return clang_getDiagnosticSeverity(d_); }
  std::string format() const {
    return take(clang_formatDiagnostic(d_, CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn));
  }
  std::string spelling() const { return take(clang_getDiagnosticSpelling(d_)); }
  CXSourceLocation location() const { return clang_getDiagnosticLocation(d_); }

 private:
  CXDiagnostic d_;
};

inline std::string spelling(CXCursor c) {
  return take(clang_getCursorSpelling(c));
}
inline std::string file_name(CXFile f) {
  return f ? take(clang_getFileName(f)) : std::string();
}
inline std::string type_spelling(CXType t) {
  return take(clang_getTypeSpelling(t));
}

// The libclang version string, e.g. "Debian clang version 14.0.6".
inline std::string version() {
  return take(clang_getClangVersion());
}

}  // namespace emberlint::clang
