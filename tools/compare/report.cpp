#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "engine/board/notation.hpp"
#include "tools/compare/compare.hpp"

namespace reversi::compare {

namespace {

std::string with_commas(std::uint64_t n) {
    std::string digits = std::to_string(n);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string pad(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string pad_right(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

// Index of alphabeta among the algorithms, or -1.
int alphabeta_index(const Measurements& m) {
    for (std::size_t a = 0; a < m.algorithms.size(); ++a) {
        if (m.algorithms[a] == Algorithm::AlphaBeta) return static_cast<int>(a);
    }
    return -1;
}

enum class Field { Nodes, Leaves };

std::uint64_t value(const Cell& c, Field f) { return f == Field::Nodes ? c.nodes : c.leaves; }

// One table: rows = algorithms, columns = depths, then total and ratio to alphabeta.
// `cell(a, d)` gives the (possibly summed) cell.
template <class CellOf>
std::string table(const Measurements& m, Field field, CellOf cell) {
    std::ostringstream out;
    const std::size_t w = 14;
    out << pad_right(field == Field::Nodes ? "nodes" : "leaves", 15);
    for (int d : m.depths) {
        char label[16];
        std::snprintf(label, sizeof label, "d%d", d);
        out << pad(label, w);
    }
    out << pad("total", 16) << pad("vs alphabeta", 14) << "\n";
    const int ab = alphabeta_index(m);
    for (std::size_t a = 0; a < m.algorithms.size(); ++a) {
        out << pad_right(std::string(algorithm_name(m.algorithms[a])), 15);
        std::uint64_t total = 0, mine = 0, theirs = 0;
        for (std::size_t d = 0; d < m.depths.size(); ++d) {
            const Cell c = cell(a, d);
            out << pad(c.done ? with_commas(value(c, field)) : "-", w);
            if (!c.done) continue;
            total += value(c, field);
            if (ab >= 0) {
                const Cell r = cell(static_cast<std::size_t>(ab), d);
                if (r.done) {
                    mine += value(c, field);
                    theirs += value(r, field);
                }
            }
        }
        out << pad(with_commas(total), 16);
        char ratio[32] = "-";
        if (theirs > 0)
            std::snprintf(ratio, sizeof ratio, "%.3f", static_cast<double>(mine) / static_cast<double>(theirs));
        out << pad(ratio, 14) << "\n";
    }
    return out.str();
}

Cell total_cell(const Measurements& m, std::size_t a, std::size_t d) {
    Cell sum;
    sum.done = true;
    for (std::size_t p = 0; p < m.positions.size(); ++p) {
        const Cell& c = m.cells[p][a][d];
        if (!c.done) return Cell{};
        sum.nodes += c.nodes;
        sum.leaves += c.leaves;
        sum.seconds += c.seconds;
    }
    return sum;
}

// The scores of the algorithms at each depth must agree: the first is printed, with '!' on disagreement.
std::string score_row(const Measurements& m, std::size_t p) {
    std::ostringstream out;
    out << pad_right("score/best", 15);
    for (std::size_t d = 0; d < m.depths.size(); ++d) {
        std::string text = "-";
        bool agree = true;
        for (std::size_t a = 0; a < m.algorithms.size(); ++a) {
            const Cell& c = m.cells[p][a][d];
            if (!c.done) continue;
            const std::string s = std::to_string(c.score);
            if (text == "-")
                text = s;
            else if (text != s)
                agree = false;
        }
        out << pad(agree ? text : text + "!", 14);
    }
    return out.str();
}

std::string position_tables(const Measurements& m, std::size_t p) {
    std::ostringstream out;
    out << "== " << m.positions[p].name << ": " << to_board_string(m.positions[p].position) << " ("
        << m.positions[p].position.empty_count() << " empties)\n";
    auto cell = [&](std::size_t a, std::size_t d) { return m.cells[p][a][d]; };
    out << table(m, Field::Nodes, cell) << "\n" << table(m, Field::Leaves, cell);
    out << score_row(m, p) << "\n\n";
    return out.str();
}

// Fewest nodes over the depths every algorithm completed on every position.
std::string fewest_over_common_depths(const Measurements& m) {
    std::size_t common = 0;
    for (std::size_t d = 0; d < m.depths.size(); ++d) {
        bool all = true;
        for (std::size_t a = 0; a < m.algorithms.size(); ++a) all = all && total_cell(m, a, d).done;
        if (!all) break;
        common = d + 1;
    }
    if (common == 0 || m.algorithms.empty()) return "";
    std::size_t best = 0;
    std::uint64_t best_nodes = ~std::uint64_t{0};
    for (std::size_t a = 0; a < m.algorithms.size(); ++a) {
        std::uint64_t n = 0;
        for (std::size_t d = 0; d < common; ++d) n += total_cell(m, a, d).nodes;
        if (n < best_nodes) {
            best_nodes = n;
            best = a;
        }
    }
    std::ostringstream out;
    out << "fewest nodes over depths " << m.depths.front() << "-" << m.depths[common - 1]
        << " (all algorithms): " << algorithm_name(m.algorithms[best]) << " (" << with_commas(best_nodes) << ")\n";
    return out.str();
}

// Fewest nodes over every depth, among the algorithms that finished every depth on every position.
std::string fewest_over_every_depth(const Measurements& m) {
    std::optional<std::size_t> best;
    std::uint64_t best_nodes = 0;
    for (std::size_t a = 0; a < m.algorithms.size(); ++a) {
        std::uint64_t n = 0;
        bool all = true;
        for (std::size_t d = 0; d < m.depths.size(); ++d) {
            const Cell c = total_cell(m, a, d);
            all = all && c.done;
            n += c.nodes;
        }
        if (all && (!best || n < best_nodes)) {
            best = a;
            best_nodes = n;
        }
    }
    if (!best) return "";
    std::ostringstream out;
    out << "fewest nodes over depths " << m.depths.front() << "-" << m.depths.back()
        << " (algorithms that finished every depth): " << algorithm_name(m.algorithms[*best]) << " ("
        << with_commas(best_nodes) << ")\n";
    return out.str();
}

// Fewest nodes at the deepest depth, among the algorithms that finished it.
std::string fewest_at_deepest(const Measurements& m) {
    for (std::size_t d = m.depths.size(); d-- > 0;) {
        std::optional<std::size_t> best;
        for (std::size_t a = 0; a < m.algorithms.size(); ++a) {
            const Cell c = total_cell(m, a, d);
            if (c.done && (!best || c.nodes < total_cell(m, *best, d).nodes)) best = a;
        }
        if (best) {
            std::ostringstream out;
            out << "fewest nodes at depth " << m.depths[d] << ": " << algorithm_name(m.algorithms[*best]) << " ("
                << with_commas(total_cell(m, *best, d).nodes) << ")\n";
            return out.str();
        }
    }
    return "";
}

}  // namespace

std::string format_tables(const Measurements& m) {
    std::ostringstream out;
    for (std::size_t p = 0; p < m.positions.size(); ++p) out << position_tables(m, p);
    if (m.positions.size() > 1) {
        out << "== total over " << m.positions.size()
            << " positions (a depth counts when every position finished it)\n";
        auto cell = [&](std::size_t a, std::size_t d) { return total_cell(m, a, d); };
        out << table(m, Field::Nodes, cell) << "\n" << table(m, Field::Leaves, cell) << "\n";
    }
    out << fewest_over_common_depths(m) << fewest_over_every_depth(m) << fewest_at_deepest(m);
    return out.str();
}

std::string format_csv(const Measurements& m) {
    std::ostringstream out;
    out << "position,board,algorithm,depth,completed,nodes,leaves,score,best,seconds\n";
    for (std::size_t p = 0; p < m.positions.size(); ++p) {
        for (std::size_t a = 0; a < m.algorithms.size(); ++a) {
            for (std::size_t d = 0; d < m.depths.size(); ++d) {
                const Cell& c = m.cells[p][a][d];
                char seconds[32];
                std::snprintf(seconds, sizeof seconds, "%.3f", c.seconds);
                out << '"' << m.positions[p].name << "\"," << to_board_string(m.positions[p].position) << ','
                    << algorithm_name(m.algorithms[a]) << ',' << m.depths[d] << ',' << (c.done ? 1 : 0) << ','
                    << c.nodes << ',' << c.leaves << ',' << c.score << ',' << move_to_string(c.best) << ',' << seconds
                    << "\n";
            }
        }
    }
    return out.str();
}

namespace {

// The nodes-against-depth chart's geometry: the depths on x, the total nodes on a log scale on y.
class NodeChart {
public:
    static constexpr double kWidth = 820, kHeight = 520, kLeft = 80, kRight = 170, kTop = 40, kBottom = 60;
    static constexpr double kPlotW = kWidth - kLeft - kRight, kPlotH = kHeight - kTop - kBottom;

    explicit NodeChart(const Measurements& m) : m_(m) {
        double lo = 1e300, hi = 1;
        for (std::size_t a = 0; a < m.algorithms.size(); ++a) {
            for (std::size_t d = 0; d < m.depths.size(); ++d) {
                const Cell c = total_cell(m, a, d);
                if (c.done && c.nodes > 0) {
                    lo = std::min(lo, static_cast<double>(c.nodes));
                    hi = std::max(hi, static_cast<double>(c.nodes));
                }
            }
        }
        if (lo > hi) lo = 1;
        log_lo_ = std::floor(std::log10(lo));
        log_hi_ = std::max(log_lo_ + 1, std::ceil(std::log10(hi)));
    }

    [[nodiscard]] double x_of(std::size_t d) const {
        const std::size_t n = m_.depths.size();
        return kLeft + (n > 1 ? kPlotW * static_cast<double>(d) / static_cast<double>(n - 1) : kPlotW / 2);
    }
    [[nodiscard]] double y_of(double nodes) const {
        return kTop + kPlotH * (1 - (std::log10(nodes) - log_lo_) / (log_hi_ - log_lo_));
    }

    // The powers of ten, the depths and the frame.
    void axes(std::ostream& out) const {
        for (double e = log_lo_; e <= log_hi_; e += 1) {
            const double y = y_of(std::pow(10.0, e));
            out << "<line x1=\"" << kLeft << "\" y1=\"" << y << "\" x2=\"" << kLeft + kPlotW << "\" y2=\"" << y
                << "\" stroke=\"#ddd\"/>\n";
            out << "<text x=\"" << kLeft - 8 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">1e" << static_cast<int>(e)
                << "</text>\n";
        }
        for (std::size_t d = 0; d < m_.depths.size(); ++d) {
            out << "<text x=\"" << x_of(d) << "\" y=\"" << kTop + kPlotH + 20 << "\" text-anchor=\"middle\">"
                << m_.depths[d] << "</text>\n";
        }
        out << "<text x=\"" << kLeft + kPlotW / 2 << "\" y=\"" << kHeight - 15
            << "\" text-anchor=\"middle\">depth</text>\n";
        out << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << kPlotW << "\" height=\"" << kPlotH
            << "\" fill=\"none\" stroke=\"black\"/>\n";
    }

    // Algorithm a's points, its line and its legend entry.
    void series(std::ostream& out, std::size_t a) const {
        static constexpr const char* kColours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                                   "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
        const char* colour = kColours[a % 10];
        std::ostringstream points;
        for (std::size_t d = 0; d < m_.depths.size(); ++d) {
            const Cell c = total_cell(m_, a, d);
            if (!c.done || c.nodes == 0) continue;
            points << x_of(d) << ',' << y_of(static_cast<double>(c.nodes)) << ' ';
            out << "<circle cx=\"" << x_of(d) << "\" cy=\"" << y_of(static_cast<double>(c.nodes))
                << "\" r=\"3\" fill=\"" << colour << "\"><title>" << algorithm_name(m_.algorithms[a]) << " depth "
                << m_.depths[d] << ": " << c.nodes << " nodes</title></circle>\n";
        }
        out << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\" points=\"" << points.str()
            << "\"/>\n";
        const double ly = kTop + 10 + 20 * static_cast<double>(a);
        out << "<line x1=\"" << kLeft + kPlotW + 15 << "\" y1=\"" << ly << "\" x2=\"" << kLeft + kPlotW + 40
            << "\" y2=\"" << ly << "\" stroke=\"" << colour << "\" stroke-width=\"3\"/>\n";
        out << "<text x=\"" << kLeft + kPlotW + 46 << "\" y=\"" << ly + 4 << "\">" << algorithm_name(m_.algorithms[a])
            << "</text>\n";
    }

private:
    const Measurements& m_;
    double log_lo_ = 0, log_hi_ = 1;
};

}  // namespace

std::string format_svg(const Measurements& m) {
    const NodeChart chart(m);
    std::ostringstream out;
    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << NodeChart::kWidth << "\" height=\""
        << NodeChart::kHeight << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    out << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    out << "<text x=\"" << NodeChart::kLeft
        << "\" y=\"24\" font-size=\"15\">Nodes searched against depth (log scale), total over " << m.positions.size()
        << " position(s)</text>\n";
    chart.axes(out);
    for (std::size_t a = 0; a < m.algorithms.size(); ++a) chart.series(out, a);
    out << "</svg>\n";
    return out.str();
}

}  // namespace reversi::compare
