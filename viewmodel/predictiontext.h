// How predictions read in every widget: one place for units and digits.
#pragma once

#include "core/model/workspace.h"
#include "core/search/nearestmiss.h"
#include "viewmodel/explorertypes.h"

#include <QString>

namespace acsel::gui
{

QString fromView(std::string_view s);
QString formatMs(double ms);
QString formatGiB(double gib);
QString formatRmqd(double rmqd);
// A latency interval in formatMs' digits, without the unit: "210.3–352.1".
QString formatInterval(const acsel::LatencyInterval& iv);
// "TTFT 812 ms · TPOT 21.4 ms · 18.2 GiB · RMQD 0.0123 · admitted"; a latency with an interval
// "TTFT 812 ms (90 %: 700.1–940.2)".
QString predictionSummary(const PredictionView& p);
// "Qwen3-8B, batch 8, calibration awq: 0-9 fp8/full | 10-35 int4_wo/mlp" (with moe the MLP
// scope reads "experts").
QString configSummary(const acsel::Config& c, const QString& modelName, bool moe = false);
// "8.19 B parameters"; a mixture of experts: "3.35 B active / 30.53 B total parameters".
QString parameterText(const acsel::ModelArch& arch);

// Why nothing meets the request, from the exact nearest miss (core/search/nearestmiss.h): per
// budget, the lowest value within the other two budgets and the answer at the budget to set
// (a tenth of a millisecond or GiB, which the sliders hold), or that loosening it alone admits
// nothing; and when Exact would answer the request (another searcher found nothing), that.
// q holds the budgets as given; with a margin the values to set are those too (the gate takes
// the margin off them) and the lines say so.
QString nearestMissText(const acsel::NearestMiss& miss, const acsel::Request& q,
                        const acsel::Workspace& ws, const acsel::BudgetMargin& margin = {});
// The card's line for a margin: "margin 5 % inside every budget"; empty without one.
QString marginText(const acsel::BudgetMargin& margin);
// The card's gate line with the confidence gate: the margin's line and "TTFT and TPOT met with
// p >= 0.9 (upper end of the FMC interval)", joined by "; "; the margin's alone at p 0.5 (off).
QString gateText(const acsel::BudgetMargin& margin, double confidence);
// Nothing to search: the Space filters leave no configuration on the stack.
QString emptySpaceText();

} // namespace acsel::gui
