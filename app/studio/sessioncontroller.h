// Saves and restores the window's session (.acsel-session, core/session/sessionfile.h) and keeps
// the autosave: written a couple of seconds after each change (band edit, pin, request,
// filter, algorithm), every few minutes, and marked clean on quit. One running window owns the
// autosave (a QLockFile next to it); an autosave not marked clean at start means the last
// window crashed or was killed, and restoring it is offered. docs/SESSIONS.md.
#pragma once

#include "core/model/workspace.h"
#include "core/session/sessionfile.h"
#include "viewmodel/explorertypes.h"

#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QLockFile;
class QMessageBox;
class QTimer;
class QWidget;

namespace acsel::gui
{
class BandEditor;
class CompareModel;
} // namespace acsel::gui

namespace acsel::studio
{

class ExplorerSession;
class ExplorerState;

struct WorkspacePaths {
    QString workspaceFile;
    QString tablesDir; // empty: spec-only stacks
    QString fmcFile;   // empty: raw latency
    // The confidence gate's P (the Request panel's Confidence); 0.5, the median line: off.
    double confidence = 0.5;
};

// What the controller reads and sets; all owned by the window. The request, filter,
// algorithm and view are the state's (the widgets follow it).
struct SessionParts {
    ExplorerSession* session = nullptr;
    ExplorerState* state = nullptr;
    acsel::gui::BandEditor* editor = nullptr;
    acsel::gui::CompareModel* compare = nullptr;
};

// The window's side: its current paths, opening a workspace (atomic: check runs on the loaded
// workspace before anything changes and may throw; on error a dialog titled errorTitle says
// why and false comes back) and showing a configuration in the band editor.
// The answer to "save the changes?" (SessionController::maybeSave).
enum class SaveAnswer { Save, Discard, Cancel };

struct SessionWindowHooks {
    std::function<WorkspacePaths()> paths;
    std::function<bool(const WorkspacePaths&, const QString& errorTitle,
                       const std::function<void(const acsel::Workspace&)>& check)>
        open;
    std::function<void(const acsel::Config&)> showInEditor;
    std::function<const acsel::Workspace*()> workspace;
};

class SessionController : public QObject
{
    Q_OBJECT
public:
    static constexpr int kDebounceMs = 2000;
    static constexpr int kPeriodicMs = 3 * 60 * 1000;

    SessionController(SessionParts parts, SessionWindowHooks hooks, QWidget* window);
    ~SessionController() override;

    // The session as the widgets show it (needs an open workspace).
    acsel::SessionDocument capture() const;
    // Atomic (QSaveFile), paths relative to the file. False with a one-line reason.
    bool saveTo(const QString& file, QString* error);
    // Loads and applies a session; a bad, newer or unresolvable one opens a dialog with its
    // one-line error and leaves the current session untouched.
    bool open(const QString& file);
    // The session file Save writes to: the one last opened or saved, or after a restore the one
    // the autosaved window had; empty = Save asks for a name.
    const QString& currentFile() const { return file_; }

    // Where autosaves live: AppDataLocation/autosave.acsel-session.
    static QString autosavePath();
    // The autosave a start would offer to restore: written by a window that did not quit
    // normally and not held by a running window. whyNot says why there is none; unreadable is
    // set when the file exists but cannot be read.
    static std::optional<acsel::SessionDocument> uncleanAutosave(QString* whyNot,
                                                                 bool* unreadable = nullptr);
    // Takes the autosave; offers an unclean one (non-blocking dialog), else starts autosaving.
    // Does nothing if another running window owns the autosave (said in the returned note). An
    // unreadable autosave is moved aside to autosave-unreadable.acsel-session (said in the note).
    QString startAutosave();
    // Writes the autosave now (clean: marks the exit normal); returns false with a reason.
    bool writeAutosave(bool clean, QString* error = nullptr);
    bool autosaving() const { return autosaving_; }
    // Whether the session differs from its file since it was last opened or saved: a band edit
    // not undone back to the save (the band editor's undo stack is marked clean on save), or
    // another request, margin, filter, algorithm or pinned set. A restored session with a file
    // counts as modified until saved. False without a file. Plot view settings and a configuration
    // clicked on the plot are not counted.
    bool isModified() const { return modified_; }
    // Checks isModified again after the window changed the widgets without their signals
    // (opening another workspace sets the request and the filter silently).
    void updateModified();

    // Called before the session is replaced (quit, Open session, Open Recent, Open workspace,
    // tables or FMC): when it is modified, asks Save / Discard / Cancel. Save writes the
    // session file (a failure opens a dialog saying why and counts as Cancel), Discard goes on
    // without writing, Cancel stops. True when the caller may go on; not modified: true, no
    // question.
    bool maybeSave();
    // Who answers maybeSave's question: by default the dialog of makeSaveQuestion, run modally.
    // Tests set a function instead (no modal loop offscreen); an empty one restores the dialog.
    using SaveQuestion = std::function<SaveAnswer(const QString& file)>;
    void setSaveQuestion(SaveQuestion ask) { ask_ = std::move(ask); }
    // The standard question about the session file: Save | Discard | Cancel, Save the default,
    // Escape (and the title bar's close) Cancel. Not shown yet.
    static QMessageBox* makeSaveQuestion(QWidget* parent, const QString& file);

signals:
    void fileChanged(const QString& file);
    void modifiedChanged(bool modified);

private:
    void markChanged();
    bool apply(const acsel::SessionDocument& doc, const QString& file, const QString& title);
    void offer(const acsel::SessionDocument& doc);
    // The widgets' state now is the file's: the baseline of isModified().
    void markSaved();

    SessionParts parts_;
    SessionWindowHooks hooks_;
    QWidget* window_;
    QString file_;
    SaveQuestion ask_;
    std::unique_ptr<QLockFile> lock_;
    QTimer* debounce_ = nullptr;
    QTimer* periodic_ = nullptr;
    bool autosaving_ = false;
    bool dirty_ = false;
    // What the session file holds (set on open and save) and whether the widgets differ.
    struct Baseline {
        acsel::Request request;
        acsel::BudgetMargin margin;
        double confidence = 0.5;
        acsel::gui::SpaceFilter filter;
        acsel::gui::SearchAlgorithmChoice algorithm;
        std::vector<std::pair<QString, acsel::Config>> pins;
        bool operator==(const Baseline&) const = default;
    };
    Baseline current() const;
    std::optional<Baseline> saved_; // none without a session file
    bool restoredUnsaved_ = false;
    bool modified_ = false;
};

// Writes text to file atomically (QSaveFile); false with a reason.
bool writeFileAtomically(const QString& file, const std::string& text, QString* error);

} // namespace acsel::studio
