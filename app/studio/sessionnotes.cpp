#include "sessionnotes.h"

#include "core/search/recommend.h"

#include <algorithm>

namespace acsel::studio
{

using namespace acsel::gui;

QStringList bannerLines(const Workspace& ws, const ExplorerHooks& hooks, bool fmcLoaded,
                        bool qualitySynthetic)
{
    // What makes the numbers less than measured first, then the workspace's own notes.
    QStringList lines;
    if (!hooks.connected())
        lines << QObject::tr("No prediction engine: the plot stays empty.");
    if (qualitySynthetic)
        lines << QObject::tr("RMQD comes from the quality surrogate fitted on this workspace's "
                             "SYNTHETIC quality set: the quality axis is illustrative, not "
                             "measured.");
    if (hooks.connected() && !fmcLoaded)
        lines << QObject::tr("Latency is the raw operator-model estimate: no FMC calibration "
                             "loaded (File > Open FMC calibration...).");
    for (const std::string& n : ws.notes)
        lines << QString::fromStdString(n);
    return lines;
}

QString servingModelMismatch(const WorkspaceEngine& engine, const Request& q)
{
    const auto fitted = engine.calibrationMode(q.stack);
    const std::string_view asked = toString(q.mode);
    if (!fitted || *fitted == asked)
        return {};
    return QObject::tr("The FMC line of %1 was fitted on the %2 serving model, the request uses "
                       "the %3 one: its calibrated latencies correct the wrong estimate. Switch "
                       "the serving mode or load an FMC file fitted on the %3 model.")
        .arg(QString::fromStdString(q.stack), QString::fromStdString(*fitted),
             QString::fromUtf8(asked.data(), static_cast<qsizetype>(asked.size())));
}

QString rmqdExtrapolationNote(const WorkspaceEngine& engine, const std::string& model)
{
    const std::vector<ModelArch>& models = engine.workspace().models;
    const auto it = std::find_if(models.begin(), models.end(),
                                 [&model](const ModelArch& m) { return m.name == model; });
    if (it == models.end())
        return {};
    // acsel search's words (core's recommend caveat), as a sentence.
    QString note = QString::fromStdString(
        extrapolationNote(engine, static_cast<int>(std::distance(models.begin(), it))));
    if (!note.isEmpty())
        note = note.front().toUpper() + note.mid(1) + QLatin1Char('.');
    return note;
}

std::string predictionsNote(const WorkspaceEngine& engine, const std::string& model)
{
    std::string note;
    if (engine.qualitySynthetic())
        note = "RMQD from the surrogate fitted on synthetic quality data";
    if (engine.surrogate().extrapolatesModel(model))
        note += std::string(note.empty() ? "" : "; ") +
                "no quality data of this model: its RMQD is extrapolated";
    return note;
}

QString extrapolatedModelsLine(const WorkspaceEngine& engine)
{
    QStringList models;
    for (const ModelArch& m : engine.workspace().models)
        if (engine.surrogate().extrapolatesModel(m.name))
            models << QString::fromStdString(m.name);
    if (models.isEmpty())
        return {};
    return models.size() == 1
               ? QObject::tr("RMQD extrapolated: %1 has no quality rows in the quality set; its "
                             "RMQD is the other models' trend, not its own.")
                     .arg(models.front())
               : QObject::tr("RMQD extrapolated: %1 have no quality rows in the quality set; "
                             "their RMQD is the other models' trend, not their own.")
                     .arg(models.join(QStringLiteral(", ")));
}

} // namespace acsel::studio
