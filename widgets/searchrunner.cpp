#include "widgets/searchrunner.h"

#include <QFutureWatcher>
#include <QPointer>
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
    cancel();
    const int id = ++nextId_;
    auto stop = std::make_shared<std::atomic<bool>>(false);
    QFuture<Outcome> future = QtConcurrent::run([work = std::move(work),
                                                 stop](QPromise<Outcome>& promise) {
        promise.setProgressRange(0, kProgressSteps);
        const ProgressFn progress = [&promise](double f) {
            promise.setProgressValue(static_cast<int>(std::clamp(f, 0.0, 1.0) * kProgressSteps));
        };
        Outcome out;
        try {
            out.value = work(progress, *stop);
        } catch (const std::exception& e) {
            out.error = e.what();
        } catch (...) {
            out.error = "unknown error";
        }
        promise.addResult(std::move(out));
    });
    // Book the job before attaching the continuation: a job that has already finished runs
    // its continuation synchronously inside then().
    active_.push_back({id, stop, future});
    current_ = id;
    running_ = true;
    emit started(id);
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::progressValueChanged, this, [this, id](int v) {
        if (id == current_ && running_)
            emit progressChanged(id, static_cast<double>(v) / kProgressSteps);
    });
    watcher->setFuture(future);
    QPointer<SearchRunner> guard(this);
    future.then(this, [guard, id, watcher](const Outcome& out) {
        if (!guard)
            return;
        watcher->deleteLater();
        guard->complete(id, out);
    });
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
