#include "core/search/recommend.h"

#include "core/search/exactsearch.h"
#include "core/search/paretofront.h"
#include "core/search/rmqdorder.h"
#include "core/search/screeningrun.h"

#include <algorithm>
#include <tuple>

namespace acsel
{
namespace
{

bool sameAlternative(const Config& a, const Config& b)
{
    return a.model == b.model && a.kv == b.kv && a.recipe == b.recipe;
}

struct Gated {
    AnswerKey key;
    Alternative alternative;
};

// The top-N and frontier passes over the candidates that fit the memory budget and (when it is
// a sound bound) whose calibrated FracMix latency is within budget; neither stores them all:
// top walks them in RMQD order (RmqdOrder), frontier keeps only the frontier.
class AlternativesRun
{
public:
    AlternativesRun(const Engine& e, const Request& q, const SearchOptions& o,
                    const std::atomic<bool>& stop)
        : run_("alternatives", e, q, o, noProgress_, stop), engine_(e),
          bound_(e.fracMixIsLowerBound(q) && run_.table().calibration().monotone()),
          screen_(run_.table().calibration(), q.ttftBudgetMs, q.tpotBudgetMs)
    {
    }

    bool cancelled() const { return run_.cancelled(); }

    std::optional<Gated> gate(const ScoredCandidate& s)
    {
        const FracMixTable& table = run_.table();
        const Config cfg = table.config(s.context, s.recipe, s.algorithm);
        GateResult g = fullGate(engine_, cfg, table.request());
        if (!g.admitted())
            return std::nullopt;
        return Gated{answerKey(s.rmqd, g.prediction, cfg, table.request()), {cfg, std::move(g)}};
    }

    // The n best admitted, distinct from the answer and each other, in answer order: another
    // (model, KV format, recipe), and not equal to an earlier one in every prediction (a cut
    // moved inside a depth third changes no prediction: the same choice to the surrogates).
    // Candidates are gated in RMQD order; the pass ends once n are held and the next RMQD is
    // worse than the last held one's (so a tie with it still competes).
    std::vector<Alternative> top(int n, const std::optional<Gated>& answer)
    {
        RmqdOrder order(run_, bound_ ? &screen_ : nullptr, 0.0);
        std::vector<Gated> held;
        const auto repeats = [](const Gated& earlier, const Gated& g) {
            return sameAlternative(earlier.alternative.config, g.alternative.config) ||
                   samePredictions(earlier.key, g.key);
        };
        for (std::optional<ScoredCandidate> next; n > 0 && (next = order.next());) {
            const ScoredCandidate& s = *next;
            if (static_cast<int>(held.size()) >= n && coarse(s.rmqd) > coarse(held.back().key.rmqd))
                break;
            std::optional<Gated> g = gate(s);
            if (!g || (answer && repeats(*answer, *g)))
                continue;
            held.push_back(std::move(*g));
            std::sort(held.begin(), held.end(),
                      [](const Gated& a, const Gated& b) { return answerPrecedes(a.key, b.key); });
            // Keep the first (best) of each distinct alternative, at most n.
            std::vector<Gated> distinct;
            for (Gated& h : held)
                if (std::none_of(distinct.begin(), distinct.end(),
                                 [&](const Gated& d) { return repeats(d, h); }))
                    distinct.push_back(std::move(h));
            if (static_cast<int>(distinct.size()) > n)
                distinct.resize(static_cast<std::size_t>(n));
            held = std::move(distinct);
        }
        std::vector<Alternative> out;
        for (Gated& h : held)
            out.push_back(std::move(h.alternative));
        return out;
    }

    // The answer as top() compares it: its key and configuration.
    std::optional<Gated> keyed(const SearchResult& answer)
    {
        if (!answer.config)
            return std::nullopt;
        const FracMixTable& table = run_.table();
        for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c) {
            const SearchContext& x = table.contexts()[static_cast<std::size_t>(c)];
            if (x.model == answer.config->model && x.batch == answer.config->batch &&
                x.kv == answer.config->kv && x.tp == answer.config->tp)
                return Gated{
                    answerKey(table.quality(c, answer.config->algorithm, answer.config->recipe),
                              answer.gate.prediction, *answer.config, table.request()),
                    {*answer.config, answer.gate}};
        }
        return std::nullopt;
    }

    std::vector<Alternative> frontier()
    {
        // The screened candidates' frontier (a set: the same for either axis order), each
        // full-gated.
        const auto screened = run_.screenedFrontier(bound_ ? &screen_ : nullptr, 0.0, false);
        std::vector<Gated> admitted;
        for (const auto& p : screened.points())
            if (std::optional<Gated> g = gate(p.value))
                admitted.push_back(std::move(*g));
        // The admitted ones' own frontier on the gated latency, by RMQD.
        std::vector<double> gx(admitted.size()), gy(admitted.size());
        for (std::size_t i = 0; i < admitted.size(); ++i) {
            gx[i] = admitted[i].key.rmqd;
            gy[i] = admitted[i].key.normLatency;
        }
        // Points equal in every prediction are one choice: the first in the answer order stands
        // for them.
        std::vector<Gated> front;
        for (std::size_t i : paretoFront(gx, gy)) {
            Gated& g = admitted[i];
            if (!front.empty() && samePredictions(front.back().key, g.key)) {
                if (answerPrecedes(g.key, front.back().key))
                    front.back() = std::move(g);
                continue;
            }
            front.push_back(std::move(g));
        }
        std::vector<Alternative> out;
        for (Gated& g : front)
            out.push_back(std::move(g.alternative));
        return out;
    }

private:
    const ProgressFn noProgress_; // first: run_ keeps a reference
    ScreeningRun run_;
    const Engine& engine_;
    bool bound_;
    LatencyScreen screen_;
};

std::vector<std::string> caveats(const Engine& e, const Recommendation& r)
{
    std::vector<std::string> notes;
    if (e.qualitySynthetic())
        notes.push_back("RMQD predicted by a surrogate fitted on SYNTHETIC quality data");
    if (r.answer.config)
        if (std::string note = extrapolationNote(e, r.answer.config->model); !note.empty())
            notes.push_back(std::move(note));
    return notes;
}

} // namespace

std::string extrapolationNote(const Engine& e, int model)
{
    const auto* engine = dynamic_cast<const WorkspaceEngine*>(&e);
    if (!engine)
        return {};
    const ModelArch& m = engine->workspace().models[static_cast<std::size_t>(model)];
    if (!engine->surrogate().extrapolatesModel(m.name))
        return {};
    return std::string(kExtrapolatedNote) + m.name +
           ": its predicted RMQD is the other models' trend over log(params), not its own; "
           "measure a few of its configurations (acsel rmqd) before trusting the answer";
}

Recommendation recommend(const Engine& engine, const RecommendRequest& r,
                         const ProgressFn& progress, const std::atomic<bool>& stop)
{
    Recommendation out;
    out.answer = r.algorithm.make()->run(engine, r.request, r.options, progress, stop);
    SearchOptions uniform = r.options;
    uniform.maxBands = 1;
    const SearchResult u = ExactSearch().run(engine, r.request, uniform, {}, stop);
    if (u.config)
        out.bestUniform = Alternative{*u.config, u.gate};
    if (r.top > 0 || r.frontier) {
        AlternativesRun alt(engine, r.request, r.options, stop);
        if (r.top > 0)
            out.top = alt.top(r.top, alt.keyed(out.answer));
        if (r.frontier && !alt.cancelled())
            out.frontier = alt.frontier();
        if (alt.cancelled()) { // a part of either would pass for the whole
            out.top.clear();
            out.frontier.clear();
        }
    }
    out.notes = caveats(engine, out);
    return out;
}

std::optional<RecommendIndex> RecommendIndex::build(const Engine& engine, const Request& q,
                                                    const SearchOptions& o,
                                                    const ProgressFn& progress,
                                                    const std::atomic<bool>& stop)
{
    SearchOptions uniform = o;
    uniform.maxBands = 1;
    std::optional<BudgetIndex> u = BudgetIndex::build(engine, q, uniform, {}, stop);
    if (!u)
        return std::nullopt;
    std::optional<BudgetIndex> bands = BudgetIndex::build(engine, q, o, progress, stop);
    if (!bands)
        return std::nullopt;
    return RecommendIndex(std::move(*bands), std::move(*u));
}

Recommendation RecommendIndex::recommend(const Engine& engine, const Request& q) const
{
    Recommendation out;
    out.answer = bands_.answer(q);
    const SearchResult u = uniform_.answer(q);
    if (u.config)
        out.bestUniform = Alternative{*u.config, u.gate};
    out.notes = caveats(engine, out);
    return out;
}

} // namespace acsel
