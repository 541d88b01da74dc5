#include "sessiondefaults.h"

#include "core/model/configspace.h"
#include "core/model/units.h"
#include "startupprofile.h"

#include <algorithm>

namespace acsel::studio
{

using namespace acsel::gui;

std::string defaultStack(const Workspace& ws)
{
    for (const char* id : {"jetson_agx_thor/vllm", "rtx_a6000/trtllm", "h100_sxm/trtllm"})
        if (ws.findStack(id))
            return id;
    const Stack* best = nullptr;
    for (const Stack& s : ws.stacks)
        if (!best || s.formats.size() > best->formats.size())
            best = &s;
    return best ? best->id : std::string();
}

SpaceFilter defaultFilter(const Workspace& ws, const std::string& stack)
{
    SpaceFilter f;
    std::string family = "qwen3";
    if (std::none_of(ws.models.begin(), ws.models.end(),
                     [&](const ModelArch& m) { return m.family == family; }) &&
        !ws.models.empty())
        family = ws.models.front().family;
    for (std::size_t i = 0; i < ws.models.size(); ++i)
        if (ws.models[i].family == family)
            f.models.push_back(static_cast<int>(i));
    if (const auto s = ws.findStack(stack))
        f.formats = ws.stacks[static_cast<std::size_t>(*s)].formats;
    f.scopes = {Scope::Full, Scope::Mlp, Scope::Attn};
    return f;
}

Request defaultRequest(const Workspace& ws, const ExplorerHooks& hooks, const SpaceFilter& filter,
                       const std::string& stack)
{
    Request r;
    r.stack = stack;
    r.isl = 1024;
    r.osl = 256;
    r.concurrency = 4;
    return withDerivedBudgets(ws, hooks, filter, r);
}

Request withDerivedBudgets(const Workspace& ws, const ExplorerHooks& hooks,
                           const SpaceFilter& filter, Request r)
{
    const std::string& stack = r.stack;
    const auto si = ws.findStack(stack);
    if (!hooks.predict || !si)
        return r;
    const Stack& s = ws.stacks[static_cast<std::size_t>(*si)];
    const auto has = [&s](Format f) {
        return std::find(s.formats.begin(), s.formats.end(), f) != s.formats.end();
    };
    const Format anchor = has(Format::Fp8) ? Format::Fp8 : Format::Int8;
    if (!has(anchor))
        return r;
    const double capGiB = ws.platformOf(s).memCapacityBytes / kGiB;
    std::vector<int> models = filter.models;
    std::sort(models.begin(), models.end(), [&ws](int a, int b) {
        return ws.models[static_cast<std::size_t>(a)].paramCount() >
               ws.models[static_cast<std::size_t>(b)].paramCount();
    });
    Request open = r; // budgets that admit anything: only the predictions matter here
    open.ttftBudgetMs = open.tpotBudgetMs = open.memBudgetGiB = 1e12;
    for (const int m : models) {
        Config c;
        c.model = m;
        c.batch = r.concurrency;
        c.recipe = BandRecipe::uniform(ws.models[static_cast<std::size_t>(m)].layers, anchor);
        const auto fits = ConfigSpace::fittingAlgorithms(c.recipe);
        if (fits.empty())
            continue;
        c.algorithm = fits.front();
        const PredictionView p = hooks.predict(c, open);
        if (capGiB > 0 && p.memoryGiB() > 0.9 * capGiB)
            continue;
        constexpr double kMargin = 1.1;
        r.ttftBudgetMs = p.ttftMs * kMargin;
        r.tpotBudgetMs = p.tpotMs * kMargin;
        r.memBudgetGiB =
            capGiB > 0 ? std::min(capGiB, p.memoryGiB() * kMargin) : p.memoryGiB() * kMargin;
        startupMark("default request predicted (operator tables of " + stack + " loaded)");
        break;
    }
    return r;
}

} // namespace acsel::studio
