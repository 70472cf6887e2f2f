// LOOT's masterlist and userlist as a source of Bash Tags: the YAML read with yaml-cpp (merge keys
// applied here), the plugin entries matched by name or by regular expression, and LOOT's condition
// strings parsed and evaluated against facts about one load order. The facts (grammar, functions,
// version order, where the version of a plugin is found) are those LOOT documents for its metadata
// syntax and condition strings.
#include "tesmod/patch/loot_metadata.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <re2/re2.h>
#include <sstream>
#include <unordered_map>

#include "tesmod/error.hpp"
#include "tesmod/io/ascii.hpp"

namespace tesmod::patch {
namespace {

// ---------------------------------------------------------------------------------------------
// Regular expressions

// Patterns are RE2's (the syntax of LOOT's own Rust regex, matched in linear time: a masterlist
// cannot make a match run for ever), case-insensitive.
RE2::Options regex_options() {
  RE2::Options o;
  o.set_case_sensitive(false);
  o.set_log_errors(false);
  return o;
}

// A pattern compiled once: names and condition regexes are matched again for every plugin of a
// load order. An invalid one is kept too (ok() false: it matches nothing).
std::shared_ptr<const RE2> compiled(const std::string& pattern) {
  static std::mutex mutex;
  static std::unordered_map<std::string, std::shared_ptr<const RE2>> cache;
  const std::lock_guard lock(mutex);
  if (auto it = cache.find(pattern); it != cache.end()) return it->second;
  auto re = std::make_shared<const RE2>(pattern, regex_options());
  cache.emplace(pattern, re);
  return re;
}

// Why a pattern does not compile, or empty.
std::string regex_problem(const std::string& pattern) {
  const auto re = compiled(pattern);
  return re->ok() ? std::string() : re->error();
}

// LOOT takes a name or path as a regular expression when it holds one of these.
bool looks_like_regex(std::string_view s) { return s.find_first_of(":\\*?|") != std::string_view::npos; }

// The file-name part of a regular-expression path: after the last '/' ('\' escapes in the regex).
std::string_view regex_file_part(std::string_view regex_path) {
  const std::size_t slash = regex_path.rfind('/');
  return slash == std::string_view::npos ? regex_path : regex_path.substr(slash + 1);
}

// ---------------------------------------------------------------------------------------------
// Versions (LOOT's extension of SemVer)

struct VersionId {
  bool numeric = false;
  std::uint32_t number = 0;
  std::string text;  // lowercased, when not numeric
};

struct ParsedVersion {
  std::vector<VersionId> release;
  std::vector<VersionId> pre_release;
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string_view trim_space(std::string_view s) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

// Decimal digits only, fitting 32 bits.
std::optional<std::uint32_t> parse_u32(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::uint64_t n = 0;
  for (char c : s) {
    if (!is_digit(c)) return std::nullopt;
    n = n * 10 + std::uint64_t(c - '0');
    if (n > 0xFFFFFFFFu) return std::nullopt;
  }
  return std::uint32_t(n);
}

VersionId version_id(std::string_view s) {
  if (auto n = parse_u32(trim_space(s))) return {true, *n, {}};
  return {false, 0, ascii::to_lower(s)};
}

ParsedVersion parse_version(std::string_view s) {
  if (s.empty()) s = "0";
  else if (const std::size_t plus = s.find('+'); plus != std::string_view::npos) s = s.substr(0, plus);  // build metadata
  std::string_view release = s;
  std::string_view pre;
  // "0, 2, 0, 12" (OBSE, SKSE) is 0.2.0.12: the ", " separators are not a pre-release separator.
  static const RE2 kCommaSpaced(R"(\d+, \d+, \d+, \d+)");
  if (!RE2::PartialMatch(re2::StringPiece(s.data(), s.size()), kCommaSpaced)) {
    const std::size_t sep = s.find_first_of("- :_");
    if (sep != std::string_view::npos) {
      release = s.substr(0, sep);
      pre = s.substr(sep + 1);
    }
  }
  ParsedVersion v;
  for (std::size_t start = 0;;) {
    const std::size_t end = release.find_first_of(".,", start);
    v.release.push_back(version_id(release.substr(start, end == std::string_view::npos ? end : end - start)));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  // Pre-release parts; a separator at the very end gives no empty last part.
  for (std::size_t start = 0; start < pre.size();) {
    const std::size_t end = pre.find_first_of(". -:_", start);
    v.pre_release.push_back(version_id(pre.substr(start, end == std::string_view::npos ? end : end - start)));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return v;
}

int sign(std::int64_t d) { return d < 0 ? -1 : d > 0 ? 1 : 0; }
int compare_text(const std::string& a, const std::string& b) { return sign(a.compare(b)); }

// A numeric release part against a non-numeric one: the latter's leading digits decide, and when
// they are equal (or there are none) the non-numeric part is the greater.
int compare_number_with_text(std::uint32_t n, const std::string& s) {
  std::size_t digits = 0;
  while (digits < s.size() && is_digit(s[digits])) ++digits;
  if (digits == 0) return -1;
  const auto m = parse_u32(s.substr(0, digits));
  if (!m) return -1;
  if (n != *m) return n < *m ? -1 : 1;
  return digits < s.size() ? -1 : 0;
}

int compare_release_id(const VersionId& a, const VersionId& b) {
  if (a.numeric && b.numeric) return a.number == b.number ? 0 : a.number < b.number ? -1 : 1;
  if (!a.numeric && !b.numeric) return compare_text(a.text, b.text);
  if (a.numeric) return compare_number_with_text(a.number, b.text);
  return -compare_number_with_text(b.number, a.text);
}

// Pre-release parts: numeric ones are lower than non-numeric ones.
int compare_pre_release_id(const VersionId& a, const VersionId& b) {
  if (a.numeric != b.numeric) return a.numeric ? -1 : 1;
  if (a.numeric) return a.number == b.number ? 0 : a.number < b.number ? -1 : 1;
  return compare_text(a.text, b.text);
}

int compare_versions(const ParsedVersion& a, const ParsedVersion& b) {
  const VersionId zero{true, 0, {}};
  const std::size_t n = std::max(a.release.size(), b.release.size());
  for (std::size_t i = 0; i < n; ++i) {
    const int c = compare_release_id(i < a.release.size() ? a.release[i] : zero,
                                     i < b.release.size() ? b.release[i] : zero);
    if (c != 0) return c;
  }
  if (a.pre_release.empty() != b.pre_release.empty()) return a.pre_release.empty() ? 1 : -1;
  const std::size_t m = std::min(a.pre_release.size(), b.pre_release.size());
  for (std::size_t i = 0; i < m; ++i)
    if (const int c = compare_pre_release_id(a.pre_release[i], b.pre_release[i]); c != 0) return c;
  return a.pre_release.size() == b.pre_release.size() ? 0 : a.pre_release.size() < b.pre_release.size() ? -1 : 1;
}

// ---------------------------------------------------------------------------------------------
// Condition strings: expression = compound { "or" compound }; compound = condition { "and"
// condition }; condition = [ "not" ] ( function | "(" expression ")" ).

enum class Comparator : std::uint8_t { Equal, NotEqual, Less, Greater, LessOrEqual, GreaterOrEqual };

struct Arg {
  enum class Kind : std::uint8_t { String, Bare, Comparator } kind = Kind::String;
  std::string text;
  Comparator comparator = Comparator::Equal;
};

struct Cond {
  enum class Kind : std::uint8_t { Or, And, Not, Call } kind = Kind::Call;
  std::vector<Cond> parts;  // Or, And: the operands; Not: the one negated
  std::string function;     // Call
  std::vector<Arg> args;
  std::uint32_t crc = 0;         // checksum()
  std::string version;           // version(), product_version(), filename_version()
  Comparator comparator = Comparator::Equal;
};

struct ConditionSyntaxError {
  std::string what;
  std::size_t at = 0;  // character offset in the condition
};

class ConditionParser {
 public:
  explicit ConditionParser(std::string_view text) : text_(text) {}

  Cond parse() {
    Cond c = expression();
    skip_space();
    if (pos_ != text_.size()) fail("expected 'and', 'or' or the end of the condition");
    return c;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int nesting_ = 0;  // open parentheses

  [[noreturn]] void fail(std::string what) const { throw ConditionSyntaxError{std::move(what), pos_}; }
  [[noreturn]] void fail_at(std::size_t at, std::string what) const { throw ConditionSyntaxError{std::move(what), at}; }

  static bool name_char(char c) { return (c >= 'a' && c <= 'z') || c == '_'; }
  static bool alnum(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\r' || text_[pos_] == '\n'))
      ++pos_;
  }

  // A keyword (and, or, not) standing alone: not the start of a longer name.
  bool keyword(std::string_view word) {
    skip_space();
    if (text_.substr(pos_, word.size()) != word) return false;
    const std::size_t after = pos_ + word.size();
    if (after < text_.size() && name_char(text_[after])) return false;
    pos_ = after;
    return true;
  }

  void expect(char c, std::string_view what) {
    skip_space();
    if (pos_ >= text_.size() || text_[pos_] != c) fail(fmt::format("expected {}", what));
    ++pos_;
  }

  Cond combine(Cond::Kind kind, std::vector<Cond> parts) {
    if (parts.size() == 1) return std::move(parts.front());
    Cond c;
    c.kind = kind;
    c.parts = std::move(parts);
    return c;
  }

  Cond expression() {
    std::vector<Cond> parts;
    parts.push_back(compound());
    while (keyword("or")) parts.push_back(compound());
    return combine(Cond::Kind::Or, std::move(parts));
  }

  Cond compound() {
    std::vector<Cond> parts;
    parts.push_back(condition());
    while (keyword("and")) parts.push_back(condition());
    return combine(Cond::Kind::And, std::move(parts));
  }

  Cond condition() {
    const bool negated = keyword("not");
    skip_space();
    if (negated && keyword("not")) fail("'not' may only be followed by a function or a parenthesized expression");
    Cond c;
    if (pos_ < text_.size() && text_[pos_] == '(') {
      // Parsed (and evaluated) by recursion: a bound keeps a condition from exhausting the stack.
      if (++nesting_ > 64) fail("parentheses nest more than 64 deep");
      ++pos_;
      c = expression();
      expect(')', "')'");
      --nesting_;
    } else if (pos_ < text_.size() && name_char(text_[pos_])) {
      c = call();
    } else {
      fail(pos_ >= text_.size() ? "the condition ends where a function or '(' was expected"
                                : "expected a function, '(' or 'not'");
    }
    if (!negated) return c;
    Cond n;
    n.kind = Cond::Kind::Not;
    n.parts.push_back(std::move(c));
    return n;
  }

  Arg argument() {
    skip_space();
    Arg a;
    if (pos_ >= text_.size()) fail("the condition ends inside a function's arguments");
    const char c = text_[pos_];
    if (c == '"') {
      const std::size_t close = text_.find('"', pos_ + 1);
      if (close == std::string_view::npos) fail("a string is not closed");
      a.text = std::string(text_.substr(pos_ + 1, close - pos_ - 1));
      pos_ = close + 1;
      return a;
    }
    static constexpr std::pair<std::string_view, Comparator> kComparators[] = {
        {"==", Comparator::Equal},       {"!=", Comparator::NotEqual}, {"<=", Comparator::LessOrEqual},
        {">=", Comparator::GreaterOrEqual}, {"<", Comparator::Less},      {">", Comparator::Greater}};
    for (const auto& [token, comparator] : kComparators)
      if (text_.substr(pos_, token.size()) == token) {
        a.kind = Arg::Kind::Comparator;
        a.text = std::string(token);
        a.comparator = comparator;
        pos_ += token.size();
        return a;
      }
    const std::size_t start = pos_;
    while (pos_ < text_.size() && alnum(text_[pos_])) ++pos_;
    if (pos_ == start) fail("expected a string, a comparator or a number");
    a.kind = Arg::Kind::Bare;
    a.text = std::string(text_.substr(start, pos_ - start));
    return a;
  }

  Cond call() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && name_char(text_[pos_])) ++pos_;
    Cond c;
    c.function = std::string(text_.substr(start, pos_ - start));
    expect('(', fmt::format("'(' after {}", c.function));
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == ')') {
      ++pos_;
    } else {
      for (;;) {
        c.args.push_back(argument());
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == ',') {
          ++pos_;
          continue;
        }
        expect(')', "',' or ')'");
        break;
      }
    }
    check_call(c, start);
    return c;
  }

  // The arguments LOOT's functions take; a function LOOT does not document takes anything (it is
  // skipped when evaluated).
  void check_call(Cond& c, std::size_t at) const {
    using K = Arg::Kind;
    const std::string& f = c.function;
    const std::vector<Arg>& a = c.args;
    auto shape = [&](std::initializer_list<K> kinds) {
      return a.size() == kinds.size() && std::equal(a.begin(), a.end(), kinds.begin(), [](const Arg& x, K k) { return x.kind == k; });
    };
    auto bad = [&](std::string_view takes) { fail_at(at, fmt::format("{}() takes {}", f, takes)); };
    auto need_path = [&](const Arg& p) {
      if (p.text.empty()) fail_at(at, fmt::format("{}(): the path is empty", f));
    };
    auto need_regex = [&](const std::string& pattern, std::string_view what) {
      if (pattern.empty()) fail_at(at, fmt::format("{}(): the {} is empty", f, what));
      if (std::string why = regex_problem(pattern); !why.empty())
        fail_at(at, fmt::format("{}(): '{}' is not a valid regular expression: {}", f, pattern, why));
    };
    auto need_regex_path = [&](const Arg& p) {
      need_path(p);
      if (p.text.back() == '/') fail_at(at, fmt::format("{}(): the regular expression path ends with '/'", f));
      need_regex(std::string(regex_file_part(p.text)), "file name regular expression");
    };
    // (path, version, comparator) or (path, comparator, version)
    auto version_args = [&]() {
      if (shape({K::String, K::String, K::Comparator})) {
        c.version = a[1].text;
        c.comparator = a[2].comparator;
      } else if (shape({K::String, K::Comparator, K::String})) {
        c.version = a[2].text;
        c.comparator = a[1].comparator;
      } else {
        bad("a path, a version and a comparator (or a path, a comparator and a version)");
      }
      if (c.version.empty()) fail_at(at, fmt::format("{}(): the version is empty", f));
    };

    if (f == "file" || f == "active") {
      if (!shape({K::String})) bad("one path");
      if (!looks_like_regex(a[0].text)) need_path(a[0]);
      else if (f == "file") need_regex_path(a[0]);
      else need_regex(a[0].text, "regular expression");
    } else if (f == "readable" || f == "is_master" || f == "is_executable") {
      if (!shape({K::String})) bad("one path");
      need_path(a[0]);
    } else if (f == "many") {
      if (!shape({K::String})) bad("one regular expression path");
      need_regex_path(a[0]);
    } else if (f == "many_active") {
      if (!shape({K::String})) bad("one regular expression");
      need_regex(a[0].text, "regular expression");
    } else if (f == "checksum") {
      if (!shape({K::String, K::Bare})) bad("a path and a hexadecimal CRC-32");
      need_path(a[0]);
      std::uint64_t crc = 0;
      for (char ch : a[1].text) {
        const int d = is_digit(ch) ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
        if (d < 0) fail_at(at, fmt::format("checksum(): '{}' is not hexadecimal", a[1].text));
        crc = crc * 16 + std::uint64_t(d);
        if (crc > 0xFFFFFFFFu) fail_at(at, fmt::format("checksum(): '{}' does not fit 32 bits", a[1].text));
      }
      c.crc = std::uint32_t(crc);
    } else if (f == "version" || f == "product_version") {
      version_args();
      need_path(a[0]);
    } else if (f == "filename_version") {
      version_args();
      need_regex_path(a[0]);
    } else if (f == "file_size") {
      if (!shape({K::String, K::Bare}) || !std::all_of(a[1].text.begin(), a[1].text.end(), is_digit))
        bad("a path and a size in bytes");
      need_path(a[0]);
    } else if (f == "description_contains") {
      if (!shape({K::String, K::String})) bad("a path and a regular expression");
      need_path(a[0]);
      need_regex(a[1].text, "regular expression");
    }
  }
};

// ---------------------------------------------------------------------------------------------
// Evaluation, in three values: a function that cannot be answered here is Unknown, and the
// operators give Unknown only when the answer depends on it (false and X is false, true or X true).

enum class Truth : std::uint8_t { False, True, Unknown };

struct Outcome {
  Truth truth = Truth::False;
  std::vector<std::string> why;  // Unknown: the functions that could not be answered
};

Outcome known(bool b) { return {b ? Truth::True : Truth::False, {}}; }
Outcome unknown(std::string why) { return {Truth::Unknown, {std::move(why)}}; }

bool plugin_extension(std::string_view path) {
  std::string name = ascii::to_lower(path.substr(std::min(path.size(), path.find_last_of("/\\") + 1)));
  if (name.size() > 6 && name.ends_with(".ghost")) name.resize(name.size() - 6);
  return name.ends_with(".esp") || name.ends_with(".esm") || name.ends_with(".esl");
}

bool compare_holds(int c, Comparator comparator) {
  switch (comparator) {
    case Comparator::Equal: return c == 0;
    case Comparator::NotEqual: return c != 0;
    case Comparator::Less: return c < 0;
    case Comparator::Greater: return c > 0;
    case Comparator::LessOrEqual: return c <= 0;
    case Comparator::GreaterOrEqual: return c >= 0;
  }
  return false;
}

// No version to compare (no such file, or a plugin without one): a missing version is less than
// any, as LOOT's metadata syntax 0.18 to 0.26 documents it.
bool missing_version_holds(Comparator comparator) {
  return comparator == Comparator::NotEqual || comparator == Comparator::Less || comparator == Comparator::LessOrEqual;
}

class Evaluator {
 public:
  explicit Evaluator(const LootFacts& facts) : f_(facts) {}

  Outcome eval(const Cond& c) const {
    switch (c.kind) {
      case Cond::Kind::Or:
      case Cond::Kind::And: {
        // `or` stops at the first true operand, `and` at the first false one.
        const Truth decisive = c.kind == Cond::Kind::Or ? Truth::True : Truth::False;
        Outcome out{c.kind == Cond::Kind::Or ? Truth::False : Truth::True, {}};
        for (const Cond& part : c.parts) {
          Outcome o = eval(part);
          if (o.truth == decisive) return o;
          if (o.truth == Truth::Unknown) {
            out.truth = Truth::Unknown;
            for (std::string& w : o.why)
              if (std::find(out.why.begin(), out.why.end(), w) == out.why.end()) out.why.push_back(std::move(w));
          }
        }
        return out;
      }
      case Cond::Kind::Not: {
        Outcome o = eval(c.parts.front());
        if (o.truth != Truth::Unknown) o.truth = o.truth == Truth::True ? Truth::False : Truth::True;
        return o;
      }
      case Cond::Kind::Call: return call(c);
    }
    return known(false);
  }

 private:
  const LootFacts& f_;

  static Outcome no_facts(std::string_view function, std::string_view what) {
    return unknown(fmt::format("{}() cannot be answered: no facts about {} were given", function, what));
  }

  // The active plugins whose name a regex matches, or nullopt when the facts cannot tell.
  std::optional<std::size_t> active_matching(const std::string& regex, std::size_t enough) const {
    std::size_t count = 0;
    if (f_.active_plugins) {
      const auto re = compiled(regex);
      for (const std::string& name : f_.active_plugins())
        if (RE2::FullMatch(name, *re) && ++count >= enough) break;
      return count;
    }
    if (!f_.files_matching || !f_.active) return std::nullopt;
    for (const std::string& path : f_.files_matching(regex))
      if (f_.active(regex_file_part(path)) && ++count >= enough) break;
    return count;
  }

  Outcome call(const Cond& c) const {
    const std::string& fn = c.function;
    const std::string& path = c.args.empty() ? std::string() : c.args.front().text;
    if (fn == "file") {
      if (looks_like_regex(path)) {
        if (!f_.files_matching) return no_facts(fn, "the files present");
        return known(!f_.files_matching(path).empty());
      }
      if (!f_.file_exists) return no_facts(fn, "the files present");
      return known(f_.file_exists(path));
    }
    if (fn == "readable") {
      if (!f_.file_exists) return no_facts(fn, "the files present");
      return known(f_.file_exists(path));
    }
    if (fn == "active" || fn == "many_active") {
      if (fn == "active" && !looks_like_regex(path)) {
        if (!f_.active) return no_facts(fn, "the active plugins");
        return known(f_.active(path));
      }
      const std::size_t enough = fn == "active" ? 1 : 2;
      const auto count = active_matching(path, enough);
      if (!count) return no_facts(fn, "the active plugins");
      return known(*count >= enough);
    }
    if (fn == "many") {
      if (!f_.files_matching) return no_facts(fn, "the files present");
      return known(f_.files_matching(path).size() > 1);
    }
    if (fn == "is_master") {
      if (!f_.is_master) return no_facts(fn, "master plugins");
      return known(f_.is_master(path));
    }
    if (fn == "checksum") {
      if (!f_.crc32) return no_facts(fn, "checksums");
      const auto crc = f_.crc32(path);
      return known(crc && *crc == c.crc);
    }
    if (fn == "version") {
      if (plugin_extension(path)) {
        if (!f_.version) return no_facts(fn, "plugin versions");
        const auto actual = f_.version(path);
        if (!actual) return known(missing_version_holds(c.comparator));
        return known(compare_holds(compare_loot_versions(*actual, c.version), c.comparator));
      }
      if (!f_.file_exists) return no_facts(fn, "the files present");
      if (!f_.file_exists(path)) return known(missing_version_holds(c.comparator));
      return unknown(fmt::format("version() of \"{}\" is not supported: only plugins' versions are read", path));
    }
    if (fn == "product_version") {
      // A missing file has no version, which LOOT answers; an executable's is not read here.
      if (f_.file_exists && !f_.file_exists(path)) return known(missing_version_holds(c.comparator));
      return unknown("product_version() is not supported: executables' versions are not read");
    }
    if (fn == "is_executable") {
      if (f_.file_exists && !f_.file_exists(path)) return known(false);
      return unknown("is_executable() is not supported: executables are not read");
    }
    if (fn == "file_size") {
      if (f_.file_exists && !f_.file_exists(path)) return known(false);
      return unknown("file_size() is not supported: file sizes are not among the facts");
    }
    if (fn == "filename_version") {
      if (!f_.files_matching) return no_facts(fn, "the files present");
      const auto re = compiled(std::string(regex_file_part(path)));
      for (const std::string& match : f_.files_matching(path)) {
        const std::string name(regex_file_part(match));
        std::string version;
        if (re->NumberOfCapturingGroups() >= 1 && RE2::FullMatch(name, *re, &version) &&
            compare_holds(compare_loot_versions(version, c.version), c.comparator))
          return known(true);
      }
      return known(false);
    }
    if (fn == "description_contains") {
      if (!f_.description) return no_facts(fn, "plugin descriptions");
      const auto description = f_.description(path);
      return known(description && RE2::PartialMatch(*description, *compiled(c.args[1].text)));
    }
    return unknown(fmt::format("{}() is not a condition function LOOT documents", fn));
  }
};

// ---------------------------------------------------------------------------------------------
// YAML

std::string position(const YAML::Mark& mark) {
  if (mark.line < 0) return "at an unknown position";
  return fmt::format("line {}, column {}", mark.line + 1, mark.column + 1);
}

class MetadataReader {
 public:
  MetadataReader(std::string_view name, LootFile kind) : name_(name), kind_(kind) {}

  LootMetadata read(std::string_view text) {
    LootMetadata out;
    out.file = name_;
    out.kind = kind_;
    YAML::Node root;
    try {
      root = YAML::Load(std::string(text));
    } catch (const YAML::Exception& e) {
      throw Error(name_, Error::kNoOffset, std::nullopt, fmt::format("{}: not valid YAML: {}", position(e.mark), e.msg));
    }
    if (!root.IsDefined() || root.IsNull()) return out;  // an empty file
    if (!root.IsMap()) fail(root, "the file is not a map of LOOT's keys (plugins, globals ...)");
    const auto plugins = lookup(root, "plugins");
    if (!plugins || plugins->IsNull()) return out;
    if (!plugins->IsSequence()) fail(*plugins, "'plugins' is not a list");
    for (const YAML::Node& entry : *plugins) out.plugins.push_back(plugin(entry));
    return out;
  }

 private:
  std::string name_;
  LootFile kind_;

  [[noreturn]] void fail(const YAML::Node& node, std::string_view what) const {
    throw Error(name_, Error::kNoOffset, std::nullopt, fmt::format("{}: {}", position(node.Mark()), what));
  }

  static std::size_t line_of(const YAML::Node& node) {
    return node.Mark().line < 0 ? 0 : std::size_t(node.Mark().line) + 1;
  }

  // A map's value for a key: the key written in the map, else what its `<<` merge key brings in
  // (a map, or a list of maps of which the first holding the key wins), merges applied in turn.
  std::optional<YAML::Node> lookup(const YAML::Node& map, std::string_view key, int depth = 0) const {
    std::optional<YAML::Node> merged;
    for (auto it = map.begin(); it != map.end(); ++it) {
      const YAML::Node k = it->first;
      if (!k.IsScalar()) continue;
      if (k.Scalar() == "<<" && k.Tag() == "?") {  // the plain `<<`: a quoted one is an ordinary key
        merged = it->second;
        continue;
      }
      if (k.Scalar() == key) return it->second;
    }
    // Errors name the map that holds the `<<` (an alias's own position is its anchor's).
    if (!merged) return std::nullopt;
    if (depth > 64) fail(map, "'<<' merges nest too deep");
    if (merged->IsMap()) return lookup(*merged, key, depth + 1);
    if (merged->IsSequence()) {
      for (const YAML::Node& m : *merged) {
        if (!m.IsMap()) fail(map, "'<<' merges something that is not a map (it takes a map or a list of maps)");
        if (auto v = lookup(m, key, depth + 1)) return v;
      }
      return std::nullopt;
    }
    fail(map, "'<<' merges something that is not a map (it takes a map or a list of maps)");
  }

  LootPluginEntry plugin(const YAML::Node& entry) const {
    if (!entry.IsMap()) fail(entry, "a plugin entry is not a map");
    LootPluginEntry p;
    p.line = line_of(entry);
    const auto name = lookup(entry, "name");
    if (!name || name->IsNull()) fail(entry, "a plugin entry has no name");
    if (!name->IsScalar() || name->Scalar().empty()) fail(*name, "a plugin entry's name is not a file name");
    p.name = name->Scalar();
    p.regex = looks_like_regex(p.name);
    if (p.regex)
      if (std::string why = regex_problem(p.name); !why.empty())
        fail(*name, fmt::format("plugin name '{}' is not a valid regular expression: {}", p.name, why));
    const auto tags = lookup(entry, "tag");
    if (!tags || tags->IsNull()) return p;
    if (!tags->IsSequence()) fail(*tags, fmt::format("{}: 'tag' is not a list", p.name));
    for (const YAML::Node& t : *tags) p.tags.push_back(tag(t, p.name));
    return p;
  }

  LootTag tag(const YAML::Node& node, const std::string& plugin) const {
    LootTag t;
    t.line = line_of(node);
    std::string written;
    if (node.IsScalar()) {
      written = node.Scalar();
    } else if (node.IsMap()) {
      const auto name = lookup(node, "name");
      if (!name || !name->IsScalar()) fail(node, fmt::format("{}: a tag map has no name", plugin));
      written = name->Scalar();
      if (const auto condition = lookup(node, "condition"); condition && !condition->IsNull()) {
        if (!condition->IsScalar()) fail(*condition, fmt::format("{}: tag '{}': the condition is not a string", plugin, written));
        const std::string& text = condition->Scalar();
        if (!trim_space(text).empty()) {
          if (std::string why = loot_condition_error(text); !why.empty())
            fail(*condition, fmt::format("{}: tag '{}': condition '{}' does not parse: {}", plugin, written, text, why));
          t.condition = text;
        }
      }
    } else {
      fail(node, fmt::format("{}: a tag is neither a string nor a map with a name", plugin));
    }
    if (!written.empty() && written.front() == '-') {
      t.removed = true;
      written.erase(0, 1);
    }
    if (written.empty()) fail(node, fmt::format("{}: a tag has an empty name", plugin));
    t.name = std::move(written);
    return t;
  }
};

bool name_matches(const LootPluginEntry& entry, std::string_view plugin) {
  if (!entry.regex) return ascii::iequals(entry.name, plugin);
  // An entry made by hand with a bad pattern matches nothing.
  return RE2::FullMatch(re2::StringPiece(plugin.data(), plugin.size()), *compiled(entry.name));
}

}  // namespace

LootMetadata parse_loot_metadata(std::string_view text, std::string_view name, LootFile kind) {
  return MetadataReader(name, kind).read(text);
}

LootMetadata read_loot_metadata(const std::filesystem::path& path, LootFile kind) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path.string(), Error::kNoOffset, std::nullopt, fmt::format("cannot be read: {}", std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw Error(path.string(), Error::kNoOffset, std::nullopt, "cannot be read");
  return parse_loot_metadata(text.str(), path.string(), kind);
}

std::string loot_condition_error(std::string_view condition) {
  if (trim_space(condition).empty()) return {};
  try {
    ConditionParser(condition).parse();
    return {};
  } catch (const ConditionSyntaxError& e) {
    return fmt::format("{} (at character {})", e.what, e.at + 1);
  }
}

LootConditionResult evaluate_loot_condition(std::string_view condition, const LootFacts& facts) {
  LootConditionResult r;
  if (trim_space(condition).empty()) {
    r.holds = true;
    return r;
  }
  Cond parsed;
  try {
    parsed = ConditionParser(condition).parse();
  } catch (const ConditionSyntaxError& e) {
    r.skipped = fmt::format("the condition does not parse: {} (at character {})", e.what, e.at + 1);
    return r;
  }
  const Outcome o = Evaluator(facts).eval(parsed);
  r.holds = o.truth == Truth::True;
  if (o.truth == Truth::Unknown) {
    for (const std::string& why : o.why) r.skipped += (r.skipped.empty() ? "" : "; ") + why;
  }
  return r;
}

int compare_loot_versions(std::string_view a, std::string_view b) {
  return compare_versions(parse_version(a), parse_version(b));
}

std::optional<std::string> loot_version_from_description(std::string_view description) {
  // A dotted version: numbers joined by periods, then letters or digits (each run after an
  // optional - . _ or :); one followed by a comma does not count ("2,300 bugs").
  static const std::string kDotted = R"((\d+(?:\.\d+)+(?:[-._:]?[A-Za-z0-9]+)*)(?:[^,]|$))";
  static const RE2 kPatterns[] = {
      RE2(R"((\d{1,2}/\d{1,2}/\d{1,4} \d{1,2}:\d{1,2}:\d{1,2}))", regex_options()),  // a timestamp
      RE2(R"(version:?\s)" + kDotted, regex_options()),
      RE2(R"((?:^|v|\s))" + kDotted, regex_options()),
      RE2(R"((?:^|v|version:\s*)(\d+))", regex_options()),  // a plain number
  };
  for (const RE2& re : kPatterns) {
    std::string found;
    if (RE2::PartialMatch(re2::StringPiece(description.data(), description.size()), re, &found) && !found.empty())
      return found;
  }
  return std::nullopt;
}

std::vector<LootTagDecision> loot_tags_for(std::string_view plugin, const std::vector<const LootMetadata*>& files,
                                           const LootFacts& facts) {
  std::vector<LootTagDecision> out;
  auto add = [&](const LootMetadata& file, const LootPluginEntry& entry) {
    for (const LootTag& tag : entry.tags) {
      LootTagDecision d;
      d.tag = tag.name;
      d.removed = tag.removed;
      d.from = file.kind;
      d.line = tag.line;
      d.condition = tag.condition.value_or(std::string());
      const LootConditionResult r = evaluate_loot_condition(d.condition, facts);
      d.applies = r.holds;
      d.skipped = r.skipped;
      out.push_back(std::move(d));
    }
  };
  for (const LootFile kind : {LootFile::Masterlist, LootFile::Userlist})
    for (const LootMetadata* file : files) {
      if (!file || file->kind != kind) continue;
      for (const LootPluginEntry& entry : file->plugins)
        if (!entry.regex && name_matches(entry, plugin)) add(*file, entry);
      for (const LootPluginEntry& entry : file->plugins)
        if (entry.regex && name_matches(entry, plugin)) add(*file, entry);
    }
  return out;
}

}  // namespace tesmod::patch
