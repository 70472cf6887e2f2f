// `tesmod conflicts`: every record more than one active plugin of a load order has, with its
// versions in load order, the winner, xEdit's conflict category and the fields that differ in
// the text form of `tesmod export`; --html writes the same as a page (text/conflicts_html.hpp).
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "load_order_args.hpp"
#include "tesmod/io/atomic_file.hpp"
#include "tesmod/io/workers.hpp"
#include "tesmod/loadorder/conflicts.hpp"
#include "tesmod/text/conflict_report.hpp"
#include "tesmod/text/conflict_text.hpp"
#include "tesmod/text/conflicts_html.hpp"
#include "tesmod/text/conflicts_json.hpp"

namespace tesmod::cli {

namespace {

struct ConflictArgs {
  LoadOrderArgs order;
  bool json = false;
  std::string html;
  std::vector<std::string> only;
  std::vector<std::string> types;
  std::string form;
  std::string plugin;
};

std::size_t terminal_width() {
  winsize w{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 20) return w.ws_col;
  if (const char* c = std::getenv("COLUMNS"))
    if (int n = std::atoi(c); n > 20) return std::size_t(n);
  return 120;
}

// The form --form names when it is a FormID: `File.esm:01ABCD` or a load-order FormID of eight
// hex digits (0x allowed).
std::optional<loadorder::FormKey> form_arg(const loadorder::LoadOrder& order, const std::string& text) {
  auto hex = [](std::string_view s) -> std::optional<std::uint32_t> {
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
    if (s.empty() || s.size() > 8) return std::nullopt;
    std::uint32_t v = 0;
    for (char c : s) {
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0) return std::nullopt;
      v = v << 4 | std::uint32_t(d);
    }
    return v;
  };
  if (const auto colon = text.rfind(':'); colon != std::string::npos) {
    const auto plugin = order.find(text.substr(0, colon));
    const auto id = hex(text.substr(colon + 1));
    if (!plugin || !id) throw UsageError("--form: '" + text + "' names no plugin of the load order and object id");
    return loadorder::FormKey{*plugin, *id & 0xFFFFFF};
  }
  if (text.size() == 8 || text.starts_with("0x") || text.starts_with("0X"))
    if (const auto id = hex(text)) return order.from_load_order_form_id(*id);
  return std::nullopt;
}


// The page's title: the data folder, or the files named.
std::string page_title(const LoadOrderArgs& args) {
  if (args.files.empty()) return std::filesystem::absolute(args.data.empty() ? "." : args.data).lexically_normal().string();
  std::string t;
  for (const std::string& f : args.files) t += (t.empty() ? "" : ", ") + std::filesystem::path(f).filename().string();
  return t;
}

// Writes ranges of records on several threads (ranges joined in order) between a head and a tail.
template <typename Append>
std::vector<std::string> pieces_of(std::size_t records, unsigned threads, const Append& append) {
  const std::size_t parts = std::max<std::size_t>(1, std::min<std::size_t>(threads * 4, records / 512));
  std::vector<std::string> pieces(parts);
  run_workers(parts, threads, [&](auto claim) {
    for (std::size_t k = claim(); k < parts; k = claim()) {
      const std::size_t from = records * k / parts, to = records * (k + 1) / parts;
      pieces[k].reserve((to - from) * 768);  // one allocation, not a doubling series
      append(pieces[k], from, to);
    }
  });
  return pieces;
}

std::string pad(const std::string& s, std::size_t width) { return s.size() >= width ? s : s + std::string(width - s.size(), ' '); }

void append_text(std::string& out, const loadorder::LoadOrder& order, const loadorder::ConflictRecord& r,
                 const std::vector<text::FieldDifference>& fields, const TextCodec& codec, std::size_t width) {
  out += fmt::format("{} {} {}{} [{}]: {}\n", r.type.str(), text::conflict_form_id(order, r.form),
                     r.editor_id.empty() ? std::string("-") : codec.to_utf8(r.editor_id),
                     "", order.plugin(r.form.plugin).name, loadorder::category_name(r.category));
  std::string versions = "  versions:";
  for (const loadorder::ConflictVersion& v : r.versions)
    versions += fmt::format(" {} ({}{})", order.plugin(v.version.plugin).name, loadorder::state_name(v.state),
                            v.itpo ? ", itpo" : "");
  out += versions + "\n";
  if (fields.empty()) return;
  // One column per version when the widest value of each fits the terminal; else a list.
  std::vector<std::size_t> widths(r.versions.size() + 1, 0);
  widths[0] = 5;
  bool multiline = false;
  for (const text::FieldDifference& f : fields) {
    widths[0] = std::max(widths[0], f.field.size());
    for (std::size_t i = 0; i < f.values.size(); ++i) {
      const std::string& v = f.values[i] ? *f.values[i] : std::string("(none)");
      multiline = multiline || v.find('\n') != std::string::npos;
      widths[i + 1] = std::max({widths[i + 1], v.size(), order.plugin(r.versions[i].version.plugin).name.size()});
    }
  }
  std::size_t total = 2;
  for (std::size_t w : widths) total += w + 2;
  if (!multiline && total <= width) {
    std::string head = "  " + pad("field", widths[0]);
    for (std::size_t i = 0; i < r.versions.size(); ++i)
      head += "  " + pad(order.plugin(r.versions[i].version.plugin).name, widths[i + 1]);
    while (!head.empty() && head.back() == ' ') head.pop_back();
    out += head + "\n";
    for (const text::FieldDifference& f : fields) {
      std::string row = "  " + pad(f.field, widths[0]);
      for (std::size_t i = 0; i < f.values.size(); ++i) row += "  " + pad(f.values[i] ? *f.values[i] : "(none)", widths[i + 1]);
      while (!row.empty() && row.back() == ' ') row.pop_back();
      out += row + "\n";
    }
    return;
  }
  for (const text::FieldDifference& f : fields) {
    out += "  " + f.field + "\n";
    for (std::size_t i = 0; i < f.values.size(); ++i) {
      std::string v = f.values[i] ? *f.values[i] : "(none)";
      for (std::size_t p = v.find('\n'); p != std::string::npos; p = v.find('\n', p + 1)) v.insert(p + 1, 6, ' ');
      out += fmt::format("    {}: {}\n", order.plugin(r.versions[i].version.plugin).name, v);
    }
  }
}

}  // namespace

Command add_conflicts(CLI::App& app, Common& common) {
  auto args = std::make_shared<ConflictArgs>();
  CLI::App* sub = app.add_subcommand(
      "conflicts", "Records more than one active plugin has: versions in load order, winner, category (conflict, "
                   "override, no_conflict) and the fields that differ");
  add_load_order_options(*sub, args->order, "Plugin files in load order, all active (instead of --data's lists)");
  sub->add_flag("--json", args->json, "Print JSON");
  sub->add_option("--html", args->html,
                  "Also write the report as one self-contained page to this file (xEdit's colours, filters, lazy rows); "
                  "stdout then gets only the counts, unless --json");
  sub->add_option("--only", args->only, "Only records of this category: conflict, override, no_conflict (repeatable)");
  sub->add_option("--type", args->types, "Only records of this type, e.g. WEAP (repeatable)");
  sub->add_option("--form", args->form, "Only this record: an EditorID, a load-order FormID (8 hex digits) or File.esm:ID");
  sub->add_option("--plugin", args->plugin, "Only records this plugin has a version of");
  add_common_options(*sub, common);
  return {sub, [args, &common] {
            const TextCodec codec(common.encoding);
            const loadorder::LoadOrder order = open_load_order(args->order, common.threads);
            text::ConflictReportOptions options;
            for (const std::string& c : args->only) {
              auto cat = loadorder::parse_category(c);
              if (!cat) throw UsageError("--only: expected conflict, override or no_conflict, not '" + c + "'");
              options.categories.push_back(*cat);
            }
            for (const std::string& t : args->types) {
              Signature s;
              if (!Signature::parse(t, s)) throw UsageError("--type: expected a four-character record type, not '" + t + "'");
              options.find.types.push_back(s);
            }
            if (!args->plugin.empty()) {
              options.find.plugin = order.find(args->plugin);
              if (!options.find.plugin) throw UsageError("--plugin: '" + args->plugin + "' is not in the load order");
            }
            if (!args->form.empty()) {
              if (auto key = form_arg(order, args->form)) options.find.forms.push_back(*key);
              else options.editor_id = args->form;
            }
            const text::ConflictReport report = text::conflict_report(order, options, codec);
            const std::vector<loadorder::ConflictRecord>& records = report.records;
            const std::vector<std::vector<text::FieldDifference>>& fields = report.fields;
            const std::vector<loadorder::Problem>& problems = report.problems;

            std::size_t counts[3] = {0, 0, 0};
            for (const loadorder::ConflictRecord& r : records) ++counts[std::size_t(r.category)];
            const std::string summary = fmt::format("{} records: {} conflict, {} override, {} no_conflict\n", records.size(),
                                                    counts[2], counts[1], counts[0]);
            if (!args->html.empty()) {
              const auto pieces = pieces_of(records.size(), order.threads(), [&](std::string& out, std::size_t from, std::size_t to) {
                text::append_conflict_records_html(out, order, records, fields, codec, from, to);
              });
              std::string head, tail;
              text::append_conflicts_html_head(head, order, page_title(args->order));
              text::append_conflicts_html_tail(tail, problems);
              AtomicFile page(args->html);
              auto put = [&](const std::string& s) { page.write({reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}); };
              put(head);
              for (const std::string& piece : pieces) put(piece);
              put(tail);
              page.commit();
              if (!args->json) {
                std::cout << summary << "page: " << std::filesystem::absolute(args->html).lexically_normal().string() << "\n";
                if (!problems.empty()) std::cerr << problems_text(problems);
                return kExitOk;
              }
            }
            if (args->json) {
              const auto pieces = pieces_of(records.size(), order.threads(), [&](std::string& out, std::size_t from, std::size_t to) {
                text::append_conflict_records_json(out, order, records, fields, codec, from, to);
              });
              std::string head, tail;
              text::append_conflicts_json_head(head, order);
              text::append_conflicts_json_tail(tail, problems);
              std::fwrite(head.data(), 1, head.size(), stdout);
              for (const std::string& piece : pieces) std::fwrite(piece.data(), 1, piece.size(), stdout);
              std::fwrite(tail.data(), 1, tail.size(), stdout);
              return kExitOk;
            }
            const std::size_t width = terminal_width();
            std::string out;
            for (std::size_t i = 0; i < records.size(); ++i) append_text(out, order, records[i], fields[i], codec, width);
            out += summary;
            std::cout << out;
            if (!problems.empty()) std::cerr << problems_text(problems);
            return kExitOk;
          }};
}

}  // namespace tesmod::cli
