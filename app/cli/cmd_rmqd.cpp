// acsel rmqd: RMQD of a candidate's cached logits against the oracle's cached top-m
// distributions (file layout: docs/QUALITY.md, core/quality/rmqd.h).
#include "app/cli/command.h"
#include "core/quality/rmqd.h"

#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

namespace acsel::cli
{
namespace
{

int run(const std::vector<std::string>& argv, CommandIo& io)
{
    const app::Args args(
        "rmqd", argv,
        {{"oracle", "FILE", "oracle safetensors: topk_ids, topk_probs [T, m], tail_mass [T]"},
         {"candidate", "FILE", "candidate safetensors: logits (or log_probs) [T, V]"},
         {"epsilon", "P", "probability clamp of the candidate's bins (default 1e-12)"},
         {"json", "", "print JSON instead of text"}});
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    RmqdOptions opt;
    opt.epsilon = args.number("epsilon", opt.epsilon, 1e-300, 1e-3);
    const RmqdResult r = computeRmqd(args.require("oracle"), args.require("candidate"), opt);
    if (args.flag("json")) {
        const nlohmann::json j{
            {"rmqd", r.rmqd},        {"tokens", r.tokens},           {"m", r.m},
            {"vocab", r.vocab},      {"max_token_kl", r.maxTokenKl}, {"max_token", r.maxToken},
            {"epsilon", opt.epsilon}};
        io.out << j.dump(2) << "\n";
        return 0;
    }
    io.out << "RMQD " << std::setprecision(6) << r.rmqd << " nats over " << r.tokens << " tokens ("
           << r.m << " oracle bins + tail, candidate vocabulary " << r.vocab << ")\n"
           << "worst token " << r.maxToken << ": KL " << r.maxTokenKl << " nats\n";
    return 0;
}

const RegisterCommand reg("rmqd", "RMQD of a candidate's logits against the oracle's cached top-m",
                          &run);

} // namespace
} // namespace acsel::cli
