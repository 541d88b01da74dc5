// How predictions read in every widget: one place for units and digits.
#pragma once

#include "core/search/budgetreach.h"
#include "viewmodel/explorertypes.h"

#include <QString>

namespace acsel::gui
{

QString fromView(std::string_view s);
QString formatMs(double ms);
QString formatGiB(double gib);
QString formatRmqd(double rmqd);
// "TTFT 812 ms · TPOT 21.4 ms · 18.2 GiB · RMQD 0.0123 · admitted"
QString predictionSummary(const PredictionView& p);
// "Qwen3-8B, batch 8, calibration awq: 0-9 fp8/full | 10-35 int4_wo/mlp"
QString configSummary(const acsel::Config& c, const QString& modelName);

// Why nothing meets the budgets, read off the reach over `points` plotted configurations (their
// screened estimates): which budget binds and what to loosen it to, one line per budget; with
// no points, that the space the Space filters leave on this stack is empty.
QString infeasibilityText(const acsel::BudgetReach& reach, double ttftBudgetMs, double tpotBudgetMs,
                          double memBudgetGiB, std::size_t points);

} // namespace acsel::gui
