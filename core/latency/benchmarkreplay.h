// The serving benchmark replayed step by step with its clients in step (docs/SERVING.md,
// "Clients in step"): c clients each send `rounds` requests of isl + osl tokens one after
// another, all starting together; the engine runs at most `slots` of them, schedules each step
// by its backend's policy (ServingDefaults: step token budget, whole-prompt or chunked prefill,
// prefills mixed with the decodes or in steps of their own) and costs it with the operator
// model. Nothing perturbs the loop, so requests admitted in one step finish in one step and come
// back together: this is the synchronised extreme of the benchmark, where estimateServing's
// steady state is the desynchronised one. A diagnostic (acsel report latency --rows), not a
// prediction: cost grows with rounds x osl steps, milliseconds to a fraction of a second.
#pragma once

#include "core/latency/opmodel.h"
#include "core/latency/servingmodel.h"

namespace acsel
{

struct BenchmarkReplay {
    // Means over all clients x rounds requests: TTFT from a request's sending to the end of the
    // step that produced its first token (waiting for a slot included); TPOT from there to its
    // last token over osl - 1 (0 when osl == 1).
    double meanTtftMs = 0;
    double meanTpotMs = 0;
    long steps = 0; // engine steps replayed
};

// A request sent as its predecessor's last step ends reaches the engine after the next step
// has started, so it is scheduled from the step after that, or the one after that again on an
// engine that schedules a step ahead (ServingDefaults::schedulesAhead); at once when the engine
// is idle.
// A step's decodes take their tokens of the budget first; prompts are served first come first
// served, whole ones without chunked prefill (at least one a step), any token split with it.
// Throws std::invalid_argument when a count is below 1.
BenchmarkReplay replayBenchmark(const StepModel& model, const ServingDefaults& d, int clients,
                                int slots, int isl, int osl, int rounds = kBenchmarkRounds);

} // namespace acsel
