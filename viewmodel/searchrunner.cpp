#include "viewmodel/searchrunner.h"

#include "viewmodel/pooltask.h"

#include <QFutureWatcher>
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
    for (Active& a : active_) {
        a.future.waitForFinished();
        // Pairs with the worker's last append: what it wrote is ours to free from here on.
        const std::lock_guard lock(a.channel->mutex);
    }
}

int SearchRunner::startErased(ErasedWork work, ErasedHandler onResult, ErasedHandler onPartial)
{
    cancel();
    const int id = ++nextId_;
    auto stop = std::make_shared<std::atomic<bool>>(false);
    auto channel = std::make_shared<Channel>();
    QFuture<int> future = startPoolTask([work = std::move(work), stop,
                                         channel](QPromise<int>& promise) {
        promise.setProgressRange(0, kProgressSteps);
        const ProgressFn progress = [&promise](double f) {
            promise.setProgressValue(static_cast<int>(std::clamp(f, 0.0, 1.0) * kProgressSteps));
        };
        int pings = 0;
        const ErasedPublish publish = [&promise, &pings,
                                       &channel](std::shared_ptr<const void> value) {
            {
                const std::lock_guard lock(channel->mutex);
                channel->outcomes.push_back({std::move(value), {}, true});
            }
            promise.addResult(++pings); // wakes the GUI thread, which takes from the channel
        };
        Outcome out;
        try {
            out.value = work(progress, publish, *stop);
        } catch (const std::exception& e) {
            out.error = e.what();
        } catch (...) {
            out.error = "unknown error";
        }
        const std::lock_guard lock(channel->mutex);
        channel->outcomes.push_back(std::move(out));
    });
    active_.push_back({id, stop, channel, future, std::move(onResult), std::move(onPartial)});
    current_ = id;
    running_ = true;
    emit started(id);
    // The watcher lives in this (GUI) thread and is a child of the runner: its signals arrive
    // through this thread's event queue; the outcomes themselves come through the channel.
    auto* watcher = new QFutureWatcher<int>(this);
    connect(watcher, &QFutureWatcher<int>::progressValueChanged, this, [this, id](int v) {
        if (id == current_ && running_)
            emit progressChanged(id, static_cast<double>(v) / kProgressSteps);
    });
    connect(watcher, &QFutureWatcher<int>::resultReadyAt, this, [this, id, channel] {
        const std::vector<Outcome> partials = take(*channel, false);
        deliverPartials(id, partials);
    });
    connect(watcher, &QFutureWatcher<int>::finished, this, [this, id, channel, watcher] {
        watcher->deleteLater();
        std::vector<Outcome> outcomes = take(*channel, true);
        const Outcome own = outcomes.empty() ? Outcome{{}, "no result", false} : outcomes.back();
        if (!outcomes.empty())
            outcomes.pop_back();
        deliverPartials(id, outcomes);
        complete(id, own);
    });
    watcher->setFuture(future);
    return id;
}

std::vector<SearchRunner::Outcome> SearchRunner::take(Channel& channel, bool finished)
{
    const std::lock_guard lock(channel.mutex);
    std::vector<Outcome> out;
    auto it = channel.outcomes.begin();
    // Before the end, the job's own outcome may already be there: it waits for finished.
    while (it != channel.outcomes.end() && (finished || it->partial))
        out.push_back(std::move(*it++));
    channel.outcomes.erase(channel.outcomes.begin(), it);
    return out;
}

SearchRunner::Active* SearchRunner::find(int id)
{
    const auto it =
        std::find_if(active_.begin(), active_.end(), [id](const Active& a) { return a.id == id; });
    return it == active_.end() ? nullptr : &*it;
}

void SearchRunner::deliverPartials(int id, const std::vector<Outcome>& outcomes)
{
    for (const Outcome& o : outcomes) {
        // Looked up and copied each time: a handler may start another job (superseding this
        // one and growing active_).
        const Active* a = find(id);
        if (id != current_ || !running_ || !a || !a->onPartial)
            return;
        const ErasedHandler onPartial = a->onPartial;
        onPartial(id, o.value);
    }
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
    ErasedHandler onResult;
    if (it != active_.end()) {
        onResult = std::move(it->onResult);
        active_.erase(it);
    }
    // A superseded or cancelled job was already reported as cancelled: drop its result.
    if (id != current_ || stopped || !running_)
        return;
    running_ = false;
    if (!outcome.error.empty()) {
        emit failed(id, QString::fromStdString(outcome.error));
        return;
    }
    if (onResult)
        onResult(id, outcome.value);
    emit finished(id);
}

} // namespace acsel::gui
