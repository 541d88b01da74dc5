#include "explorersession.h"

#include "startupprofile.h"

#include <atomic>
#include <chrono>
#include <string>

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
           a.concurrency == b.concurrency && a.mode == b.mode && a.gpus == b.gpus;
}

// Everything but the budgets: what one budget index answers.
bool sameWorkload(const SearchKey& a, const SearchKey& b)
{
    return sameSpace(a.request, b.request) && a.filter == b.filter && a.algorithm == b.algorithm;
}
} // namespace

ExplorerSession::ExplorerSession(QObject* parent)
    : QObject(parent), scoring_(new SearchRunner(this)), search_(new SearchRunner(this)),
      indexing_(new SearchRunner(this)), kick_(new QTimer(this))
{
    kick_->setSingleShot(true);
    kick_->setInterval(0);
    connect(kick_, &QTimer::timeout, this, &ExplorerSession::startQueued);
    connect(scoring_, &SearchRunner::failed, this, [this](int, const QString& m) {
        emit searchFailed(m);
        startQueued();
    });
    connect(search_, &SearchRunner::cancelled, this, [this] { searched_.reset(); });
    connect(search_, &SearchRunner::failed, this, [this](int, const QString& m) {
        searched_.reset(); // the same request may be tried again
        emit searchFailed(m);
    });
    // A failed or cancelled build leaves no answerer; budget changes are searched as before.
    connect(indexing_, &SearchRunner::failed, this, [this] { indexed_.reset(); });
    connect(indexing_, &SearchRunner::cancelled, this, [this] { indexed_.reset(); });
}

void ExplorerSession::setWorkspace(std::shared_ptr<const Workspace> ws, ExplorerHooks hooks)
{
    scoring_->cancel();
    search_->cancel();
    indexing_->cancel();
    kick_->stop();
    rescoreQueued_ = searchQueued_ = false;
    searched_.reset();
    indexed_.reset();
    answerer_ = {};
    ws_ = std::move(ws);
    hooks_ = std::move(hooks);
}

void ExplorerSession::setRequest(const Request& r)
{
    const bool rescore = !sameSpace(r, request_);
    request_ = r;
    dropIndexOfAnotherWorkload();
    if (rescore)
        queueRescore();
    else if (searched_ != key())
        answerFromIndex(); // a budget moved: answered while the hand still moves
}

void ExplorerSession::setMargin(const BudgetMargin& m)
{
    margin_ = m;
    if (searched_ != key())
        answerFromIndex();
}

void ExplorerSession::setFilter(const SpaceFilter& f)
{
    filter_ = f;
    dropIndexOfAnotherWorkload();
    queueRescore();
    startSearch();
}

void ExplorerSession::setAlgorithm(SearchAlgorithmChoice a)
{
    algorithm_ = a;
    dropIndexOfAnotherWorkload();
    startSearch();
}

void ExplorerSession::start(const Request& r, const SpaceFilter& f, SearchAlgorithmChoice a)
{
    request_ = r;
    filter_ = f;
    algorithm_ = a;
    searched_.reset();
    dropIndexOfAnotherWorkload();
    queueRescore();
    startSearch();
}

void ExplorerSession::queueRescore()
{
    if (!hooks_.scoreSpace)
        return;
    scoring_->cancel(); // its points are stale now
    rescoreQueued_ = true;
    kick_->start();
}

void ExplorerSession::startSearch()
{
    if (!hooks_.search)
        return;
    if (!searchQueued_ && searched_ == key())
        return; // e.g. the panel settling on the request the workspace opened with
    if (answerFromIndex())
        return;
    search_->cancel();
    searched_.reset();
    searchQueued_ = true;
    kick_->start();
}

void ExplorerSession::firstFrameShown(const PointSet* shown)
{
    // Only the running scoring's own points count: a replot of the last request's points
    // (a hover, a budget move) says nothing about this one.
    if (!scoring_->isRunning() || firstFrameDrawn_ || !shown || shown != published_)
        return;
    firstFrameDrawn_ = true;
    if (searchQueued_)
        kick_->start();
}

void ExplorerSession::startQueued()
{
    if (rescoreQueued_) {
        rescoreQueued_ = false;
        firstFrameDrawn_ = false;
        published_ = nullptr; // the window still shows the last scoring's points
        const SearchRunner::Handler<Scored> drawn = [this](int, const Scored& s) {
            published_ = s.points.get();
            emit pointsReady(s.points, s.seconds);
        };
        const SearchRunner::Handler<Scored> scored = [this, drawn](int job, const Scored& s) {
            drawn(job, s);
            startQueued(); // a search waiting for the points
            QTimer::singleShot(0, this, &ExplorerSession::startIndexIfIdle);
        };
        scoring_->start<Scored>(
            [score = hooks_.scoreSpace, r = request_, f = filter_](
                const SearchRunner::ProgressFn&, const SearchRunner::PublishFn<Scored>& publish,
                const std::atomic<bool>& stop) {
                const auto t0 = std::chrono::steady_clock::now();
                const auto since = [t0] {
                    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
                        .count();
                };
                startupMark("scoring started");
                auto points = score(
                    r, f,
                    [&](std::shared_ptr<const PointSet> early) {
                        startupMark("uniform points scored: " +
                                    std::to_string(early->points.size()) + " points");
                        publish(Scored{std::move(early), since()});
                    },
                    stop);
                startupMark("scoring done: " + std::to_string(points->points.size()) + " points");
                return Scored{points, since()};
            },
            scored, drawn); // the uniform configurations first, a first frame
    }
    // The search starts once the first frame (the uniform configurations) is on screen: it then
    // shares the cores with the rest of the scoring, and its answer (tens of milliseconds of
    // Exact) arrives long before the millions of band points are scored. Not before: on two
    // cores the first paint of the window would wait for it.
    if (searchQueued_ && (!scoring_->isRunning() || firstFrameDrawn_)) {
        searchQueued_ = false;
        runSearch();
    }
}

void ExplorerSession::runSearch()
{
    const SearchKey key = this->key();
    searched_ = key;
    search_->start<SearchOutcome>(
        [search = hooks_.search, key](const SearchRunner::ProgressFn& progress,
                                      const std::atomic<bool>& stop) {
            startupMark("search started");
            SearchOutcome o =
                search(key.request, key.filter, key.algorithm, key.margin, progress, stop);
            startupMark("search done: " + std::to_string(o.stats.candidates) + " candidates");
            return o;
        },
        [this, key](int, const SearchOutcome& o) {
            emit searchFinished(o, key);
            QTimer::singleShot(0, this, &ExplorerSession::startIndexIfIdle);
        });
}

bool ExplorerSession::answerFromIndex()
{
    if (!answersBudgetsAtOnce())
        return false;
    // The margin only shrinks the budgets: the index answers the gated request.
    const std::optional<SearchOutcome> outcome = answerer_(gated());
    if (!outcome)
        return false;
    search_->cancel();
    searchQueued_ = false;
    searched_ = key();
    emit searchFinished(*outcome, *searched_);
    return true;
}

bool ExplorerSession::answersBudgetsAtOnce() const
{
    return answerer_ && indexed_ && sameWorkload(*indexed_, key());
}

void ExplorerSession::startIndexIfIdle()
{
    // After the scoring and the search: the index takes a second or two of both cores.
    if (!hooks_.indexBudgets || !searched_ || scoring_->isRunning() || search_->isRunning() ||
        searchQueued_ || rescoreQueued_ || (indexed_ && sameWorkload(*indexed_, *searched_)))
        return;
    answerer_ = {};
    indexing_->start<ExplorerHooks::BudgetAnswerer>(
        [build = hooks_.indexBudgets, key = *searched_](const SearchRunner::ProgressFn&,
                                                        const std::atomic<bool>& stop) {
            startupMark("budget index started");
            ExplorerHooks::BudgetAnswerer a = build(key.request, key.filter, key.algorithm, stop);
            startupMark("budget index built");
            return a;
        },
        [this](int, const ExplorerHooks::BudgetAnswerer& a) {
            answerer_ = a;
            if (answerer_)
                emit budgetIndexReady();
        });
    indexed_ = searched_; // after start(): superseding a running build reports it cancelled
}

void ExplorerSession::dropIndexOfAnotherWorkload()
{
    if (indexed_ && !sameWorkload(*indexed_, key())) {
        indexing_->cancel();
        indexed_.reset();
        answerer_ = {};
    }
}

SearchKey ExplorerSession::key() const
{
    return {request_, filter_, resolvedAlgorithm(algorithm_), margin_};
}

std::optional<PredictionView> ExplorerSession::predict(const Config& c) const
{
    if (!hooks_.predict)
        return std::nullopt;
    return hooks_.predict(c, gated());
}

} // namespace acsel::studio
