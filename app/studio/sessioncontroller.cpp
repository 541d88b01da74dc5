#include "sessioncontroller.h"

#include "core/data/loaderror.h"
#include "explorersession.h"
#include "explorerstate.h"
#include "widgets/bandeditor.h"
#include "widgets/bandstrip.h"
#include "widgets/comparemodel.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QLockFile>
#include <QMessageBox>
#include <QSaveFile>
#include <QStandardPaths>
#include <QTimer>
#include <QUndoStack>
#include <QWidget>
#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>

using namespace acsel;
using namespace acsel::gui;

namespace acsel::studio
{
namespace
{

template <std::size_t N> int indexOf(const char* const (&names)[N], const std::string& s)
{
    const auto it =
        std::find_if(std::begin(names), std::end(names), [&s](const char* n) { return s == n; });
    return it == std::end(names) ? 0 : static_cast<int>(it - std::begin(names));
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

std::string absolute(const QString& p)
{
    return p.isEmpty() ? std::string() : QFileInfo(p).absoluteFilePath().toStdString();
}

// A configuration document's request must not ask for more concurrency than its batch holds:
// a configuration kept from an earlier request records the request capped at its batch.
ConfigDocument documentOf(const Workspace& ws, const Config& c, const Request& r,
                          std::optional<Prediction> p)
{
    Request capped = r;
    capped.concurrency = std::min(r.concurrency, c.batch);
    return makeConfigDocument(ws, c, capped, std::move(p));
}

// None when the engine could not predict it (NaN numbers): JSON has no NaN.
std::optional<Prediction> numbersOf(const PredictionView& p)
{
    if (!std::isfinite(p.ttftMs + p.tpotMs + p.memoryBytes + p.rmqd))
        return std::nullopt;
    return static_cast<const Prediction&>(p);
}

// A configuration left over from another workspace (its model index or layers do not fit this
// one) cannot be written as one of this workspace's models.
bool belongs(const Workspace& ws, const Config& c)
{
    return c.model >= 0 && static_cast<std::size_t>(c.model) < ws.models.size() &&
           c.recipe.validate(ws.models[static_cast<std::size_t>(c.model)].layers).empty();
}

// Resolves an embedded configuration against the workspace; errors name the session pointer.
Config resolved(ConfigDocument doc, const Workspace& ws, const std::string& file,
                const std::string& ptr)
{
    try {
        resolveModel(doc, ws, file);
    } catch (const LoadError& e) {
        throw LoadError(e.file(), ptr + (e.where() == "/" ? "" : e.where()), e.message());
    }
    return doc.config;
}

QString lockPath()
{
    return QFileInfo(SessionController::autosavePath()).absolutePath() +
           QStringLiteral("/autosave.lock");
}

} // namespace

bool writeFileAtomically(const QString& file, const std::string& text, QString* error)
{
    QSaveFile out(file);
    const bool ok = out.open(QIODevice::WriteOnly) &&
                    out.write(text.data(), static_cast<qint64>(text.size())) ==
                        static_cast<qint64>(text.size()) &&
                    out.commit();
    if (!ok && error)
        *error = QStringLiteral("Cannot write %1: %2").arg(file, out.errorString());
    return ok;
}

SessionController::SessionController(SessionParts parts, SessionWindowHooks hooks, QWidget* window)
    : QObject(window), parts_(parts), hooks_(std::move(hooks)), window_(window)
{
    debounce_ = new QTimer(this);
    debounce_->setSingleShot(true);
    debounce_->setInterval(kDebounceMs);
    connect(debounce_, &QTimer::timeout, this, [this] { writeAutosave(false); });
    periodic_ = new QTimer(this);
    periodic_->setInterval(kPeriodicMs);
    connect(periodic_, &QTimer::timeout, this, [this] {
        if (dirty_)
            writeAutosave(false);
    });
    connect(parts_.editor, &BandEditor::configPredicted, this, &SessionController::markChanged);
    connect(parts_.compare, &CompareModel::pinnedChanged, this, &SessionController::markChanged);
    // Modified since the last save: cheap comparisons, so on every move of a budget too.
    connect(parts_.editor->strip()->undoStack(), &QUndoStack::cleanChanged, this,
            &SessionController::updateModified);
    connect(parts_.compare, &CompareModel::pinnedChanged, this, &SessionController::updateModified);
    connect(parts_.state, &ExplorerState::keyChanged, this, [this] {
        markChanged();
        updateModified();
    });
    connect(parts_.state, &ExplorerState::viewChanged, this, &SessionController::markChanged);
}

SessionController::~SessionController() = default;

void SessionController::markChanged()
{
    dirty_ = true;
    if (autosaving_)
        debounce_->start();
}

SessionController::Baseline SessionController::current() const
{
    const ExplorerState& st = *parts_.state;
    Baseline b{st.request(), st.margin(),          hooks_.paths().confidence,
               st.filter(),  st.algorithmChoice(), {}};
    for (const PinnedConfig& p : parts_.compare->pinned())
        b.pins.emplace_back(p.label, p.config);
    return b;
}

void SessionController::markSaved()
{
    restoredUnsaved_ = false;
    saved_ = current();
    parts_.editor->strip()->undoStack()->setClean();
    updateModified();
}

void SessionController::updateModified()
{
    const bool modified =
        saved_ && (restoredUnsaved_ || !parts_.editor->strip()->undoStack()->isClean() ||
                   !(current() == *saved_));
    if (modified == modified_)
        return;
    modified_ = modified;
    emit modifiedChanged(modified_);
}

QMessageBox* SessionController::makeSaveQuestion(QWidget* parent, const QString& file)
{
    auto* box = new QMessageBox(
        QMessageBox::Question, tr("Save the session?"),
        tr("The session %1 has changes that are not saved.").arg(QFileInfo(file).fileName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, parent);
    box->setInformativeText(tr("Save them to %1?").arg(file));
    box->setDefaultButton(QMessageBox::Save);
    box->setEscapeButton(QMessageBox::Cancel);
    return box;
}

bool SessionController::maybeSave()
{
    updateModified(); // the window may have changed the widgets without their signals
    if (!modified_)
        return true;
    SaveAnswer answer = SaveAnswer::Cancel;
    if (ask_) {
        answer = ask_(file_);
    } else {
        const std::unique_ptr<QMessageBox> box(makeSaveQuestion(window_, file_));
        const int button = box->exec();
        answer = button == QMessageBox::Save      ? SaveAnswer::Save
                 : button == QMessageBox::Discard ? SaveAnswer::Discard
                                                  : SaveAnswer::Cancel;
    }
    if (answer != SaveAnswer::Save)
        return answer == SaveAnswer::Discard;
    QString error;
    if (saveTo(file_, &error))
        return true;
    // Not blocking, like the other error dialogs: the close or open is cancelled either way.
    auto* box =
        new QMessageBox(QMessageBox::Warning, tr("Save session"), error, QMessageBox::Ok, window_);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    qWarning("Save session: %s", qPrintable(error));
    return false;
}

SessionDocument SessionController::capture() const
{
    const Workspace& ws = *hooks_.workspace();
    const WorkspacePaths p = hooks_.paths();
    SessionDocument d;
    d.workspaceFile = absolute(p.workspaceFile);
    d.tablesDir = absolute(p.tablesDir);
    d.fmcFile = absolute(p.fmcFile);
    d.confidence = p.confidence;
    d.sessionFile = absolute(file_); // for the autosave: Save after a restore writes back here
    const ExplorerState& st = *parts_.state;
    d.request = st.request();
    d.margin = st.margin();
    for (const int m : st.filter().models)
        d.filter.models.push_back(ws.models.at(static_cast<std::size_t>(m)).name);
    d.filter.formats = st.filter().formats;
    d.filter.scopes = st.filter().scopes;
    d.searchAlgorithm = st.algorithmChoice();
    const ViewSettings& v = st.view();
    d.view.latencyAxis = kSessionLatencyAxes[static_cast<int>(v.axis)];
    d.view.logX = v.logX;
    d.view.logY = v.logY;
    d.view.colourBy = kSessionColourBy[v.colourBy == ColourBy::Model ? 0 : 1];
    const Config& c = parts_.editor->config();
    if (c.recipe.size() > 0 && parts_.editor->prediction() && belongs(ws, c))
        d.edited = documentOf(ws, c, d.request, numbersOf(*parts_.editor->prediction()));
    for (const PinnedConfig& pin : parts_.compare->pinned())
        if (belongs(ws, pin.config))
            d.pinned.push_back({pin.label.toStdString(),
                                documentOf(ws, pin.config, d.request, numbersOf(pin.prediction))});
    return d;
}

bool SessionController::saveTo(const QString& file, QString* error)
{
    if (!hooks_.workspace()) {
        *error = tr("No workspace is open.");
        return false;
    }
    SessionDocument doc = capture();
    doc.sessionFile.clear(); // a session file does not name itself
    const std::string text = writeSessionJson(doc, absolute(file), SessionPaths::RelativeToFile);
    if (!writeFileAtomically(file, text, error))
        return false;
    file_ = file;
    markSaved();
    emit fileChanged(file_);
    return true;
}

bool SessionController::open(const QString& file)
{
    try {
        const SessionDocument doc = loadSessionFile(file.toStdString());
        if (!apply(doc, file, tr("Cannot open session")))
            return false;
    } catch (const LoadError& e) {
        auto* box = new QMessageBox(QMessageBox::Critical, tr("Cannot open session"),
                                    QString::fromStdString(e.what()), QMessageBox::Ok, window_);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        qWarning("Cannot open session: %s", e.what());
        return false;
    }
    file_ = file;
    markSaved();
    emit fileChanged(file_);
    return true;
}

bool SessionController::apply(const SessionDocument& doc, const QString& file, const QString& title)
{
    // Everything that can fail is resolved on the loaded workspace before the window changes.
    const std::string name = file.toStdString();
    SpaceFilter filter;
    std::optional<Config> edited;
    std::vector<PinnedConfig> pins;
    auto check = [&](const Workspace& ws) {
        const JsonFields f(name);
        if (!ws.findStack(doc.request.stack))
            f.fail("/stack", "stack '" + doc.request.stack + "' is not in the workspace");
        for (std::size_t i = 0; i < doc.filter.models.size(); ++i) {
            const auto m = ws.findModel(doc.filter.models[i]);
            if (!m)
                f.fail("/filter/models/" + std::to_string(i),
                       "model '" + doc.filter.models[i] + "' is not in the workspace");
            filter.models.push_back(*m);
        }
        filter.formats = doc.filter.formats;
        filter.scopes = doc.filter.scopes;
        if (doc.edited)
            edited = resolved(*doc.edited, ws, name, "/edited");
        for (std::size_t i = 0; i < doc.pinned.size(); ++i) {
            const ConfigDocument& d = doc.pinned[i].document;
            const Config c =
                resolved(d, ws, name, "/pinned/" + std::to_string(i) + "/configuration");
            PredictionView saved; // shown only if the engine cannot predict it again
            if (d.predictions) {
                static_cast<Prediction&>(saved) = *d.predictions;
                saved.verdict = "as saved in the session";
            }
            pins.push_back({q(doc.pinned[i].label), q(d.modelName), c, saved});
        }
    };
    if (!hooks_.open({q(doc.workspaceFile), q(doc.tablesDir), q(doc.fmcFile), doc.confidence},
                     title, check))
        return false;
    const SearchAlgorithmChoice algorithm = doc.searchAlgorithm;
    // Into the state: the panel, the plot and the explorer session follow it.
    ExplorerState& st = *parts_.state;
    st.setRequest(doc.request);
    st.setMargin(doc.margin);
    st.setFilter(filter);
    st.setAlgorithm(algorithm);
    st.setView({static_cast<LatencyAxis>(indexOf(kSessionLatencyAxes, doc.view.latencyAxis)),
                doc.view.logX, doc.view.logY,
                doc.view.colourBy == "model" ? ColourBy::Model : ColourBy::FormatFamily});
    // Pinned numbers are predicted again under the restored request and engine.
    parts_.compare->clear();
    for (PinnedConfig& p : pins) {
        try {
            if (const auto prediction = parts_.session->predict(p.config))
                p.prediction = *prediction;
        } catch (const std::exception& e) { // e.g. a format this stack has no costs for
            p.prediction.verdict += std::string(" (not predicted again: ") + e.what() + ")";
        }
        parts_.compare->pin(p);
    }
    if (edited) // the user's configuration: a finished search offers, never replaces it
        hooks_.showInEditor(*edited);
    dirty_ = true;
    return true;
}

QString SessionController::autosavePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/autosave.acsel-session");
}

std::optional<SessionDocument> SessionController::uncleanAutosave(QString* whyNot, bool* unreadable)
{
    const QString path = autosavePath();
    if (!QFileInfo::exists(path)) {
        *whyNot = tr("No autosave at %1.").arg(path);
        return std::nullopt;
    }
    QLockFile probe(lockPath());
    probe.setStaleLockTime(0); // a lock is stale only when its process is gone
    if (!probe.tryLock(0)) {
        *whyNot = tr("The autosave %1 belongs to a running ACSeL Studio.").arg(path);
        return std::nullopt;
    }
    try {
        SessionDocument doc = loadSessionFile(path.toStdString());
        if (doc.cleanExit) {
            *whyNot = tr("The last window quit normally (%1 is marked clean).").arg(path);
            return std::nullopt;
        }
        return doc;
    } catch (const LoadError& e) {
        *whyNot = tr("The autosave cannot be read: %1").arg(QString::fromStdString(e.what()));
        if (unreadable)
            *unreadable = true;
        return std::nullopt;
    }
}

QString SessionController::startAutosave()
{
    QDir().mkpath(QFileInfo(autosavePath()).absolutePath());
    QString whyNot;
    bool unreadable = false;
    std::optional<SessionDocument> pending = uncleanAutosave(&whyNot, &unreadable);
    lock_ = std::make_unique<QLockFile>(lockPath());
    lock_->setStaleLockTime(0);
    if (!lock_->tryLock(0)) {
        lock_.reset();
        return tr("Autosave off: another ACSeL Studio window is autosaving.");
    }
    // An autosave that cannot be read is kept aside, not overwritten by the next autosave: it
    // may be the only copy of a crashed session, for a newer build or for repair by hand.
    QString note;
    if (unreadable) {
        const QString kept = QFileInfo(autosavePath()).absolutePath() +
                             QStringLiteral("/autosave-unreadable.acsel-session");
        QFile::remove(kept);
        note = QFile::rename(autosavePath(), kept)
                   ? tr("%1 It is kept as %2.").arg(whyNot, kept)
                   : tr("%1 It could not be kept aside as %2.").arg(whyNot, kept);
    }
    if (pending) {
        offer(*pending); // autosaving starts once answered, so the crashed one is not overwritten
        return {};
    }
    autosaving_ = true;
    periodic_->start();
    if (dirty_)
        debounce_->start();
    return note;
}

void SessionController::offer(const SessionDocument& doc)
{
    const QString path = autosavePath();
    QStringList what;
    if (!doc.sessionFile.empty())
        what << tr("Session file: %1").arg(q(doc.sessionFile));
    what << tr("Workspace: %1").arg(QFileInfo(q(doc.workspaceFile)).fileName());
    if (doc.edited)
        what << tr("Band editor: %1 %2")
                    .arg(q(doc.edited->modelName), q(doc.edited->config.recipe.describe()));
    what << tr("Pinned configurations: %1").arg(doc.pinned.size());
    auto* box = new QMessageBox(
        QMessageBox::Question, tr("Restore the last session?"),
        tr("ACSeL Studio did not quit normally (it crashed or was killed). Restore the session "
           "autosaved at %1?")
            .arg(QFileInfo(path).lastModified().toString(Qt::ISODate)),
        QMessageBox::NoButton, window_);
    box->setInformativeText(what.join(QLatin1Char('\n')));
    box->addButton(tr("Restore"), QMessageBox::AcceptRole);
    box->addButton(tr("Discard"), QMessageBox::DestructiveRole);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, doc, path](int) {
        const bool restore = box->buttonRole(box->clickedButton()) == QMessageBox::AcceptRole;
        if (restore && apply(doc, path, tr("Cannot restore the session"))) {
            file_ = q(doc.sessionFile); // Save writes back to the file the session came from
            if (file_.isEmpty()) {
                saved_.reset();
            } else { // what was restored is not what the file holds
                markSaved();
                restoredUnsaved_ = true;
            }
            updateModified();
            emit fileChanged(file_);
        } else { // kept once, beside the next autosave
            const QString kept = QFileInfo(path).absolutePath() +
                                 QStringLiteral("/autosave-discarded.acsel-session");
            QFile::remove(kept);
            QFile::rename(path, kept);
        }
        autosaving_ = true;
        periodic_->start();
        writeAutosave(false);
    });
    box->open(); // non-blocking: a --screenshot run or a test is never stopped by it
}

bool SessionController::writeAutosave(bool clean, QString* error)
{
    if (!autosaving_ || !hooks_.workspace())
        return false;
    SessionDocument d = capture();
    d.cleanExit = clean;
    QString why;
    const bool ok = writeFileAtomically(
        autosavePath(), writeSessionJson(d, autosavePath().toStdString(), SessionPaths::Absolute),
        &why);
    if (!ok) {
        qWarning("Autosave failed: %s", qPrintable(why));
        if (error)
            *error = why;
        return false;
    }
    dirty_ = false;
    return true;
}

} // namespace acsel::studio
