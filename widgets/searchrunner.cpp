#include "widgets/searchrunner.h"

#include <QFutureWatcher>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <exception>

namespace acsel::gui
{

namespace
{
constexpr int kProgressSteps = 1000;
}

SearchRunner::SearchRunner(QObject* parent) : QObject(parent) {}

SearchRunner::~SearchRunner()
{
    for (Active& a : active_)
        a.stop->store(true);
    for (Active& a : active_)
        a.future.waitForFinished();
}

int SearchRunner::start(Work work)
{
    return start(StagedWork(
        [work = std::move(work)](const ProgressFn& progress, const PublishFn&,
                                 const std::atomic<bool>& stop) { return work(progress, stop); }));
}

int SearchRunner::start(StagedWork work)
{
    cancel();
    const int id = ++nextId_;
    auto stop = std::make_shared<std::atomic<bool>>(false);
    QFuture<Outcome> future = QtConcurrent::run([work = std::move(work),
                                                 stop](QPromise<Outcome>& promise) {
        promise.setProgressRange(0, kProgressSteps);
        const ProgressFn progress = [&promise](double f) {
            promise.setProgressValue(static_cast<int>(std::clamp(f, 0.0, 1.0) * kProgressSteps));
        };
        const PublishFn publish = [&promise](std::any value) {
            promise.addResult(Outcome{std::move(value), {}, true});
        };
        Outcome out;
        try {
            out.value = work(progress, publish, *stop);
        } catch (const std::exception& e) {
            out.error = e.what();
        } catch (...) {
            out.error = "unknown error";
        }
        promise.addResult(std::move(out));
    });
    active_.push_back({id, stop, future});
    current_ = id;
    running_ = true;
    emit started(id);
    // The watcher lives in this (GUI) thread and is a child of the runner: its signals arrive
    // through this thread's event queue, so the result is read and delivered here, and nothing
    // of ours is touched or destroyed on the worker thread (a then() continuation would be).
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::progressValueChanged, this, [this, id](int v) {
        if (id == current_ && running_)
            emit progressChanged(id, static_cast<double>(v) / kProgressSteps);
    });
    connect(watcher, &QFutureWatcher<Outcome>::resultReadyAt, this, [this, id, watcher](int i) {
        const Outcome out = watcher->resultAt(i);
        if (out.partial && id == current_ && running_)
            emit partialResult(id, out.value);
    });
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, id, watcher] {
        watcher->deleteLater();
        const QFuture<Outcome> f = watcher->future();
        complete(id, f.resultAt(f.resultCount() - 1));
    });
    watcher->setFuture(future);
    return id;
}

void SearchRunner::cancel()
{
    if (!running_)
        return;
    for (Active& a : active_)
        if (a.id == current_)
            a.stop->store(true);
    running_ = false;
    emit cancelled(current_);
}

void SearchRunner::complete(int id, const Outcome& outcome)
{
    const auto it =
        std::find_if(active_.begin(), active_.end(), [id](const Active& a) { return a.id == id; });
    const bool stopped = it == active_.end() || it->stop->load();
    if (it != active_.end())
        active_.erase(it);
    // A superseded or cancelled job was already reported as cancelled: drop its result.
    if (id != current_ || stopped || !running_)
        return;
    running_ = false;
    if (!outcome.error.empty())
        emit failed(id, QString::fromStdString(outcome.error));
    else
        emit finished(id, outcome.value);
}

} // namespace acsel::gui
