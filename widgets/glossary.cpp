#include "widgets/glossary.h"

#include <QCoreApplication>

namespace acsel::gui
{

QString whatIs(Term t)
{
    const auto tr = [](const char* s) { return QCoreApplication::translate("Glossary", s); };
    switch (t) {
    case Term::Rmqd:
        return tr("RMQD: the quality lost to quantization, the mean per-token KL divergence "
                  "between the reference (\"oracle\") model's next-token distribution and the "
                  "configuration's; lower is better. Predicted by the quality surrogate.");
    case Term::Fmc:
        return tr("FMC: a calibration line per stack, fitted on measured latencies (acsel "
                  "calibrate), that corrects the raw operator-model estimate; without an FMC "
                  "file the latencies are raw estimates.");
    case Term::FracMix:
        return tr("FracMix: the cheap latency screen of a band recipe, the layer-weighted mix "
                  "of the uniform configurations' estimates; a lower bound of the full "
                  "estimate.");
    case Term::Scope:
        return tr("Scope: which weights of a band's layers are quantized: the whole layer "
                  "(full), the MLP only, or the attention only.");
    case Term::Gate:
        return tr("Gate: the full prediction of a configuration checked against the request's "
                  "budgets (memory, then TTFT and TPOT); admitted, or rejected with the budget "
                  "that binds.");
    case Term::CalibrationAlgorithm:
        return tr("Calibration algorithm: how the quantization scales were chosen (e.g. max or "
                  "awq); it changes the quality, not the latency.");
    case Term::Screened:
        return tr("Screened: candidates that passed the FracMix screen (a lower bound of their "
                  "latency within the budgets); only those get the full gate.");
    }
    return {};
}

} // namespace acsel::gui
