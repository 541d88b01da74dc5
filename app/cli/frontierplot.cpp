#include "app/cli/frontierplot.h"

#include "core/search/explorer.h"
#include "render/frontierimage.h"

#include <QGuiApplication>
#include <cstdio>
#include <memory>
#include <numeric>

namespace acsel::cli
{
namespace
{

constexpr int kWidth = 1200, kHeight = 760;
// Enough band points to show the cloud's shape; the frontier drawn over it is exact.
constexpr std::size_t kCloudBandPoints = 20000;

render::Mark markOf(const Prediction& p, const Request& q)
{
    return {
        latencyOnAxis(LatencyAxis::Normalised, p.ttftMs, p.tpotMs, q.ttftBudgetMs, q.tpotBudgetMs),
        p.rmqd};
}

// Qt's own chatter (e.g. "QStandardPaths: XDG_RUNTIME_DIR not set") is not the command's
// output; errors still go through.
void quietQtWarnings(QtMsgType type, const QMessageLogContext&, const QString& msg)
{
    if (type == QtCriticalMsg || type == QtFatalMsg)
        std::fprintf(stderr, "acsel: Qt: %s\n", qPrintable(msg));
}

std::string titleOf(const Request& q)
{
    return "Quality-latency frontier: " + q.stack + ", ISL " + std::to_string(q.isl) + ", OSL " +
           std::to_string(q.osl) + ", concurrency " + std::to_string(q.concurrency) +
           (q.gpus > 1 ? ", " + std::to_string(q.gpus) + " GPUs" : "");
}

} // namespace

FrontierPlot renderFrontierPlot(const FrontierPlotInput& in)
{
    FrontierPlot out;
    // acsel has no QGuiApplication of its own (fonts need one): make one on the offscreen
    // platform (no display needed, none opened) for as long as the drawing takes. argv must
    // outlive it.
    char name[] = "acsel", platformFlag[] = "-platform", platform[] = "offscreen";
    char* argv[] = {name, platformFlag, platform, nullptr};
    int argc = 3;
    const QtMessageHandler previous = qInstallMessageHandler(quietQtWarnings);
    struct Restore {
        QtMessageHandler handler;
        ~Restore() { qInstallMessageHandler(handler); }
    } restore{previous};
    std::unique_ptr<QGuiApplication> app;
    if (!QCoreApplication::instance())
        app = std::make_unique<QGuiApplication>(argc, argv);
    else if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance())) {
        out.unavailable = "this process runs without a QGuiApplication, which drawing text needs";
        return out;
    }

    const Workspace& ws = in.engine.workspace();
    std::vector<int> models = in.options.models;
    if (models.empty()) { // the search's "every model"
        models.resize(ws.models.size());
        std::iota(models.begin(), models.end(), 0);
    }
    Explorer explorer;
    const std::atomic<bool> noStop{false};
    explorer.build(in.engine, in.request, in.options, kCloudBandPoints, noStop);

    render::FrontierImage image;
    image.title = titleOf(in.request);
    image.xTitle = "Normalised latency max(TTFT / TTFT budget, TPOT / TPOT budget), log scale";
    image.yTitle = "Predicted RMQD (mean KL to the unquantized model)";
    std::vector<int> seriesOf(ws.models.size(), 0);
    for (int m : models) {
        seriesOf[static_cast<std::size_t>(m)] = static_cast<int>(image.seriesNames.size());
        image.seriesNames.push_back(ws.models[static_cast<std::size_t>(m)].name);
    }
    image.cloudName = "screened candidates (FracMix estimate); faded: over a budget";
    for (std::size_t i = 0; i < explorer.points().size(); ++i)
        image.cloud.push_back(
            {explorer.latency(i, LatencyAxis::Normalised), explorer.points()[i].rmqd,
             seriesOf[static_cast<std::size_t>(explorer.context(i).model)], explorer.feasible(i)});
    image.frontierName = "admitted frontier (full estimate; frontier.csv)";
    for (const Prediction& p : in.frontier)
        image.frontier.push_back(markOf(p, in.request));
    image.budget = 1.0;
    image.budgetName = "latency budgets (normalised latency 1)";
    if (in.answer)
        image.answer = markOf(*in.answer, in.request);
    if (in.bestUniform)
        image.bestUniform = markOf(*in.bestUniform, in.request);
    image.synthetic = in.engine.qualitySynthetic();
    image.caption = "Predicted by ACSeL Studio: screened points from the explorer (FracMix "
                    "latency, memory, surrogate RMQD), the frontier and marks from the full "
                    "estimate; latency: " +
                    in.latencySource + "; stack " + in.request.stack +
                    (image.synthetic ? "; quality surrogate fitted on SYNTHETIC quality data" : "");
    out.caption = image.caption;

    const render::EncodedImages images = render::drawFrontierImage(image, kWidth, kHeight);
    if (images.png.empty()) {
        out.unavailable = "the plot could not be drawn (Qt's offscreen platform failed)";
        return out;
    }
    out.png = images.png;
    out.svg = images.svg;
    return out;
}

} // namespace acsel::cli
