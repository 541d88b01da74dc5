#include "explorersession.h"

#include <chrono>

namespace acsel::studio
{

using namespace acsel::gui;

namespace
{
struct Scored {
    std::shared_ptr<const PointSet> points;
    double seconds;
};
bool sameSpace(const Request& a, const Request& b)
{
    return a.stack == b.stack && a.isl == b.isl && a.osl == b.osl &&
           a.concurrency == b.concurrency && a.mode == b.mode;
}
} // namespace

ExplorerSession::ExplorerSession(QObject* parent)
    : QObject(parent), scoring_(new SearchRunner(this)), search_(new SearchRunner(this))
{
    connect(scoring_, &SearchRunner::finished, this, [this](int, const std::any& r) {
        const auto& s = std::any_cast<const Scored&>(r);
        emit pointsReady(s.points, s.seconds);
    });
    connect(search_, &SearchRunner::finished, this, [this](int, const std::any& r) {
        emit searchFinished(std::any_cast<const SearchOutcome&>(r));
    });
    for (SearchRunner* runner : {scoring_, search_})
        connect(runner, &SearchRunner::failed, this,
                [this](int, const QString& m) { emit searchFailed(m); });
}

void ExplorerSession::setWorkspace(std::shared_ptr<const Workspace> ws, ExplorerHooks hooks)
{
    scoring_->cancel();
    search_->cancel();
    ws_ = std::move(ws);
    hooks_ = std::move(hooks);
}

void ExplorerSession::setRequest(const Request& r)
{
    const bool rescore = !sameSpace(r, request_);
    request_ = r;
    if (rescore)
        rescoreSpace();
}

void ExplorerSession::setFilter(const SpaceFilter& f)
{
    filter_ = f;
    rescoreSpace();
    startSearch();
}

void ExplorerSession::setAlgorithm(SearchAlgorithm a)
{
    algorithm_ = a;
    startSearch();
}

void ExplorerSession::rescoreSpace()
{
    if (!hooks_.scoreSpace)
        return;
    scoring_->start([score = hooks_.scoreSpace, r = request_,
                     f = filter_](const SearchRunner::ProgressFn&, const std::atomic<bool>&) {
        const auto t0 = std::chrono::steady_clock::now();
        auto points = score(r, f);
        return std::any(Scored{
            points, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()});
    });
}

void ExplorerSession::startSearch()
{
    if (!hooks_.search)
        return;
    search_->start([search = hooks_.search, r = request_, f = filter_, a = algorithm_](
                       const SearchRunner::ProgressFn& progress, const std::atomic<bool>& stop) {
        return std::any(search(r, f, a, progress, stop));
    });
}

std::optional<Prediction> ExplorerSession::predict(const Config& c) const
{
    if (!hooks_.predict)
        return std::nullopt;
    return hooks_.predict(c, request_);
}

QStringList bannerLines(const Workspace& ws, const ExplorerHooks& hooks)
{
    QStringList lines;
    if (!hooks.syntheticNote.empty())
        lines << QString::fromStdString(hooks.syntheticNote);
    for (const std::string& n : ws.notes)
        lines << QString::fromStdString(n);
    if (!hooks.connected())
        lines << QObject::tr("Prediction engine not connected yet: the plot stays empty. Run with "
                             "--demo to try the explorer on synthetic numbers.");
    if (ws.qualitySynthetic)
        lines << QObject::tr("The quality measurements of this workspace are synthetic.");
    return lines;
}

std::string defaultStack(const Workspace& ws)
{
    const Stack* best = nullptr;
    for (const Stack& s : ws.stacks)
        if (!best || s.formats.size() > best->formats.size())
            best = &s;
    return best ? best->id : std::string();
}

} // namespace acsel::studio
