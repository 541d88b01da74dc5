// Throughput of an answer, from its predicted TTFT and TPOT (docs/METHOD.md 3, "Throughput"):
// a closed loop of `concurrency` clients on one replica of `gpus` GPUs, each sending its next
// request when the previous one has finished, so Little's law gives the request rate from the
// request latency.
#pragma once

namespace acsel
{

struct Throughput {
    double requestMs = 0;      // one request end to end: TTFT + (osl - 1) x TPOT
    double tokensPerSUser = 0; // what one user sees while decoding: 1000 / TPOT
    double requestsPerS = 0;   // concurrency / requestMs
    double tokensPerSGpu = 0;  // output tokens of all users per GPU: requestsPerS x osl / gpus
};

// ttftMs and tpotMs as predicted (TTFT of a continuous request includes its queueing). With
// osl == 1 there is no decode: the user's rate is one token per TTFT. Throws
// std::invalid_argument for a non-positive TTFT, a negative TPOT, osl, concurrency or gpus < 1.
Throughput throughputOf(double ttftMs, double tpotMs, int osl, int concurrency, int gpus = 1);

} // namespace acsel
