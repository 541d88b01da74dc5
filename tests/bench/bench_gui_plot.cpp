// What a budget slider move costs in the explorer: re-score N points (x, feasibility, frontier)
// and redraw the plot, against the naive baseline of rebuilding every graph (clear + add, which
// QCustomPlot advises against for live data) measured in the same run. Also cold start to a
// drawn frontier: constructing the plot, handing it the points and the first replot.
// Run: QT_QPA_PLATFORM=offscreen build/release/tests/bench_gui_plot [points]
// Not a pass/fail test: it prints medians and ratios.
#include "widgets/paretoplot.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <algorithm>
#include <cstdio>
#include <qcustomplot.h>
#include <random>

using namespace acsel::gui;

namespace
{
std::shared_ptr<PointSet> makePoints(std::size_t n)
{
    auto set = std::make_shared<PointSet>();
    set->modelNames = {"A", "B", "C", "D"};
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> u(0, 1);
    for (std::size_t i = 0; i < n; ++i) {
        PlotPoint p;
        p.model = static_cast<std::uint16_t>(i % 4);
        const double size = 1.0 + p.model;
        p.ttftMs = 20 * size * (0.5 + u(rng));
        p.tpotMs = 5 * size * (0.5 + u(rng));
        p.rmqd = 0.05 / size * u(rng) * u(rng);
        p.memoryGiB = 10 * size * (0.5 + u(rng));
        p.configId = static_cast<std::uint32_t>(i);
        p.uniform = i % 50 == 0;
        set->points.push_back(p);
    }
    set->configs.resize(n);
    return set;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Baseline, the straightforward way: throw every graph away and rebuild it with unsorted data
// and QCustomPlot's own disc markers on each update, refitting the axes.
double naiveUpdate(QCustomPlot& plot, const PointSet& set, const Budgets& b)
{
    QElapsedTimer t;
    t.start();
    plot.clearGraphs();
    std::vector<QVector<double>> xs(16), ys(16);
    for (const PlotPoint& p : set.points) {
        const std::size_t g = p.model * 4u + (p.uniform ? 0u : 2u) + (isFeasible(p, b) ? 0u : 1u);
        xs[g].append(p.ttftMs);
        ys[g].append(p.rmqd);
    }
    for (std::size_t g = 0; g < 16; ++g) {
        QCPGraph* graph = plot.addGraph();
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
        graph->setData(xs[g], ys[g]);
    }
    plot.rescaleAxes();
    plot.replot(QCustomPlot::rpImmediateRefresh);
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}
} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const std::size_t n = argc > 1 ? std::stoul(argv[1]) : 50000;
    const auto set = makePoints(n);

    QElapsedTimer cold;
    cold.start();
    ParetoPlot plot;
    plot.resize(1000, 700);
    plot.show();
    plot.setPoints(set);
    plot.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
    const double coldMs = static_cast<double>(cold.nsecsElapsed()) / 1e6;

    std::vector<double> ours, rescoreOnly, naive;
    QCustomPlot baseline;
    baseline.resize(1000, 700);
    baseline.show();
    for (int i = 0; i < 40; ++i) {
        const Budgets b{40.0 + i * 2, 15.0 + i * 0.5, 30.0 + i};
        QElapsedTimer t;
        t.start();
        plot.setBudgets(b);
        rescoreOnly.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        plot.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
        ours.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        naive.push_back(naiveUpdate(baseline, *set, b));
    }
    // Timings on a shared machine depend on what else runs: print the load with them.
    QFile load(QStringLiteral("/proc/loadavg"));
    const QByteArray loadavg =
        load.open(QIODevice::ReadOnly) ? load.readLine().trimmed() : "unknown";
    std::printf("points: %zu, load average: %s\n", n, loadavg.constData());
    std::printf("cold start to drawn frontier: %.1f ms\n", coldMs);
    std::printf("slider move, re-score + data swap: median %.2f ms\n", median(rescoreOnly));
    std::printf("slider move, re-score + replot:     median %.2f ms (frame budget 16.7 ms)\n",
                median(ours));
    std::printf("naive rebuild + replot:             median %.2f ms\n", median(naive));
    std::printf("ratio naive / ours: %.2fx\n", median(naive) / median(ours));
    return 0;
}
