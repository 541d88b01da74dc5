// Runs one background job at a time on the thread pool (widgets/pooltask.h + QPromise): each job
// has an id, starting a new one cancels and supersedes the running one, progress, intermediate
// results and the result arrive in the GUI thread (through a QFutureWatcher living there), and
// only the newest job's results are delivered. The work is plain C++: it gets a progress
// callback, a publish callback and a stop flag, and never sees Qt (see core searchers).
#pragma once

#include <QFuture>
#include <QObject>
#include <any>
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
    // The work polls stop and returns early when it is set (its result is then discarded).
    using Work = std::function<std::any(const ProgressFn& progress, const std::atomic<bool>& stop)>;
    // Hands an intermediate result to the GUI thread (partialResult), e.g. a first coarse
    // answer before the complete one; callable from the worker any number of times.
    using PublishFn = std::function<void(std::any)>;
    using StagedWork = std::function<std::any(const ProgressFn& progress, const PublishFn& publish,
                                              const std::atomic<bool>& stop)>;

    explicit SearchRunner(QObject* parent = nullptr);
    // Stops every job still running and waits for them (their results are dropped).
    ~SearchRunner() override;

    // Cancels the running job (if any) and starts this one; returns its id (> 0).
    int start(Work work);
    int start(StagedWork work);
    // Asks the running job to stop; it is reported as cancelled at once.
    void cancel();
    bool isRunning() const { return running_; }
    int currentJob() const { return current_; }

signals:
    void started(int job);
    void progressChanged(int job, double fraction);
    // In publishing order, before finished; only while the job is the current one.
    void partialResult(int job, const std::any& value);
    void finished(int job, const std::any& result);
    void failed(int job, const QString& message);
    void cancelled(int job);

private:
    struct Outcome {
        std::any value;
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
    };
    // Takes the channel's partial outcomes (all outcomes once the job has finished).
    static std::vector<Outcome> take(Channel& channel, bool finished);
    void deliverPartials(int id, const std::vector<Outcome>& outcomes);
    void complete(int id, const Outcome& outcome);

    std::vector<Active> active_; // the current job and superseded ones still winding down
    int nextId_ = 0;
    int current_ = 0;
    bool running_ = false;
};

} // namespace acsel::gui
