// Runs one background job at a time on the thread pool (viewmodel/pooltask.h + QPromise): each job
// has an id, starting a new one cancels and supersedes the running one, progress, intermediate
// results and the result arrive in the GUI thread (through a QFutureWatcher living there), and
// only the newest job's results are delivered. The work is plain C++: it gets a progress
// callback, a publish callback and a stop flag, and never sees Qt (see core searchers).
// Results are typed: a job of Result hands its values to handlers taking a Result, checked by
// the compiler (no std::any to cast on the receiving side).
#pragma once

#include <QFuture>
#include <QObject>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace acsel::gui
{

class SearchRunner : public QObject
{
    Q_OBJECT
public:
    // Fraction done in [0, 1]; cheap, callable from the worker as often as it likes.
    using ProgressFn = std::function<void(double)>;
    // Hands an intermediate result to the GUI thread (onPartial), e.g. a first coarse answer
    // before the complete one; callable from the worker any number of times.
    template <class Result> using PublishFn = std::function<void(Result)>;
    // The work polls stop and returns early when it is set (its result is then discarded).
    template <class Result>
    using Work = std::function<Result(const ProgressFn& progress, const std::atomic<bool>& stop)>;
    template <class Result>
    using StagedWork =
        std::function<Result(const ProgressFn& progress, const PublishFn<Result>& publish,
                             const std::atomic<bool>& stop)>;
    // Called in the GUI thread with the job's id, only while the job is the current one.
    template <class Result> using Handler = std::function<void(int job, const Result& value)>;

    explicit SearchRunner(QObject* parent = nullptr);
    // Stops every job still running and waits for them (their results are dropped).
    ~SearchRunner() override;

    // Cancels the running job (if any) and starts this one; returns its id (> 0). onResult gets
    // the job's result, then finished(job) is emitted; onPartial gets what the work publishes,
    // in publishing order, before the result.
    template <class Result>
    int start(StagedWork<Result> work, Handler<Result> onResult, Handler<Result> onPartial = {})
    {
        const auto erase = [](Handler<Result> h) -> ErasedHandler {
            if (!h)
                return {};
            return [h = std::move(h)](int job, const std::shared_ptr<const void>& value) {
                h(job, *static_cast<const Result*>(value.get()));
            };
        };
        return startErased(
            [work = std::move(work)](const ProgressFn& progress, const ErasedPublish& publish,
                                     const std::atomic<bool>& stop) {
                const PublishFn<Result> typed = [&publish](Result value) {
                    publish(std::make_shared<const Result>(std::move(value)));
                };
                return std::shared_ptr<const void>(
                    std::make_shared<const Result>(work(progress, typed, stop)));
            },
            erase(std::move(onResult)), erase(std::move(onPartial)));
    }
    template <class Result> int start(Work<Result> work, Handler<Result> onResult)
    {
        return start<Result>(
            StagedWork<Result>([work = std::move(work)](
                                   const ProgressFn& progress, const PublishFn<Result>&,
                                   const std::atomic<bool>& stop) { return work(progress, stop); }),
            std::move(onResult));
    }
    // Asks the running job to stop; it is reported as cancelled at once.
    void cancel();
    bool isRunning() const { return running_; }
    int currentJob() const { return current_; }

signals:
    void started(int job);
    void progressChanged(int job, double fraction);
    void finished(int job); // after the job's onResult
    void failed(int job, const QString& message);
    void cancelled(int job);

private:
    // The typed layer above turns every Result into a shared_ptr<const void> on the worker and
    // back in the handler made for the same Result: the casts cannot mismatch.
    using ErasedHandler = std::function<void(int, const std::shared_ptr<const void>&)>;
    using ErasedPublish = std::function<void(std::shared_ptr<const void>)>;
    using ErasedWork = std::function<std::shared_ptr<const void>(
        const ProgressFn&, const ErasedPublish&, const std::atomic<bool>&)>;

    struct Outcome {
        std::shared_ptr<const void> value;
        std::string error;
        bool partial = false; // published on the way; the last outcome is the job's own
    };
    // The hand-over between the worker and the GUI thread, under our own mutex (visible to
    // ThreadSanitizer, unlike Qt's internal locks): the worker appends, the GUI thread takes.
    // The future's results are only pings (sequence numbers, never read) and its end.
    struct Channel {
        std::mutex mutex;
        std::vector<Outcome> outcomes; // the job's own outcome is appended last
    };
    struct Active {
        int id;
        std::shared_ptr<std::atomic<bool>> stop;
        std::shared_ptr<Channel> channel;
        QFuture<int> future;
        ErasedHandler onResult, onPartial;
    };
    int startErased(ErasedWork work, ErasedHandler onResult, ErasedHandler onPartial);
    // Takes the channel's partial outcomes (all outcomes once the job has finished).
    static std::vector<Outcome> take(Channel& channel, bool finished);
    void deliverPartials(int id, const std::vector<Outcome>& outcomes);
    void complete(int id, const Outcome& outcome);
    Active* find(int id);

    std::vector<Active> active_; // the current job and superseded ones still winding down
    int nextId_ = 0;
    int current_ = 0;
    bool running_ = false;
};

} // namespace acsel::gui
