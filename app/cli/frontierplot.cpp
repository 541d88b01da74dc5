#include "app/cli/frontierplot.h"

#include "core/search/explorer.h"
#include "viewmodel/explorerpoints.h"
#include "widgets/paretoplot.h"

#include <QApplication>
#include <cstdio>
#include <memory>
#include <numeric>

namespace acsel::cli
{
namespace
{

constexpr int kWidth = 1200, kHeight = 760;

gui::MarkedPoint markOf(const Prediction& p)
{
    return {p.ttftMs, p.tpotMs, p.rmqd};
}

std::string bytesOf(const QByteArray& b)
{
    return {b.constData(), static_cast<std::size_t>(b.size())};
}

// Qt's own chatter (e.g. "QStandardPaths: XDG_RUNTIME_DIR not set") is not the command's
// output; errors still go through.
void quietQtWarnings(QtMsgType type, const QMessageLogContext&, const QString& msg)
{
    if (type == QtCriticalMsg || type == QtFatalMsg)
        std::fprintf(stderr, "acsel: Qt: %s\n", qPrintable(msg));
}

} // namespace

FrontierPlot renderFrontierPlot(const FrontierPlotInput& in)
{
    FrontierPlot out;
    // acsel has no QApplication of its own: make one on the offscreen platform (no display
    // needed, none opened) for as long as the drawing takes. argv must outlive it.
    char name[] = "acsel", platformFlag[] = "-platform", platform[] = "offscreen";
    char* argv[] = {name, platformFlag, platform, nullptr};
    int argc = 3;
    const QtMessageHandler previous = qInstallMessageHandler(quietQtWarnings);
    struct Restore {
        QtMessageHandler handler;
        ~Restore() { qInstallMessageHandler(handler); }
    } restore{previous};
    std::unique_ptr<QApplication> app;
    if (!QCoreApplication::instance())
        app = std::make_unique<QApplication>(argc, argv);
    else if (!qobject_cast<QApplication*>(QCoreApplication::instance())) {
        out.unavailable = "this process runs without a QApplication, which the plot widget needs";
        return out;
    }

    std::vector<int> models = in.options.models;
    if (models.empty()) { // the search's "every model"
        models.resize(in.engine.workspace().models.size());
        std::iota(models.begin(), models.end(), 0);
    }
    Explorer explorer;
    const std::atomic<bool> noStop{false};
    explorer.build(in.engine, in.request, in.options, gui::kDisplayedBandPoints, noStop);
    const auto points = gui::pointSetOf(in.engine, models, explorer);
    points->provenance += "; latency: " + in.latencySource + "; stack " + in.request.stack;
    out.caption = points->provenance;

    gui::ParetoPlot plot;
    plot.resize(kWidth, kHeight);
    plot.setAxis(LatencyAxis::Normalised);
    plot.setLogX(true); // the models span two decades of latency
    plot.setBudgets(gui::budgetsOf(in.request));
    plot.setPoints(points);
    if (in.answer)
        plot.setRecommended(markOf(*in.answer));
    if (in.bestUniform)
        plot.setBestUniform(markOf(*in.bestUniform));
    out.png = bytesOf(plot.encodeImage(QStringLiteral("png"), kWidth, kHeight));
    out.svg = bytesOf(plot.encodeImage(QStringLiteral("svg"), kWidth, kHeight));
    if (out.png.empty() || out.svg.empty()) {
        out.png.clear();
        out.svg.clear();
        out.unavailable = "the plot could not be drawn (Qt's offscreen platform failed)";
    }
    return out;
}

} // namespace acsel::cli
