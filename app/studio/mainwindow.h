// The main window: docks the widgets around the plot and wires them to one ExplorerSession.
// No algorithm lives here.
#pragma once

#include "core/model/workspace.h"
#include "explorersession.h"
#include "widgets/explorertypes.h"

#include <QMainWindow>
#include <memory>
#include <optional>

class QLabel;

namespace acsel::gui
{
class BandEditor;
class CompareModel;
class CompareTable;
class FitQualityPlot;
class ParetoPlot;
class RecipeCard;
class SloPanel;
} // namespace acsel::gui

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    // demo: use the synthetic stand-in engine (see demoexplorer.h) until the real one is wired.
    explicit MainWindow(bool demo, QWidget* parent = nullptr);
    // Replaces the current workspace; on error the old one stays and a dialog says why.
    bool openWorkspace(const QString& workspaceFile, const QString& tablesDir);
    // True while points are being scored or a search runs (used by --screenshot).
    bool isBusy() const;

protected:
    void closeEvent(QCloseEvent* e) override;

private:
    void buildDocks();
    void buildMenus();
    void wire();
    void showOutcome(const acsel::gui::SearchOutcome& o);
    void selectPoint(std::uint32_t configId);
    void pinCurrentCard();
    void updateBanner();
    void updateStatus();
    QString modelName(int model) const;

    bool demo_;
    std::shared_ptr<const acsel::Workspace> ws_;
    QString workspaceFile_;
    QString tablesDir_;
    acsel::studio::ExplorerSession* session_ = nullptr;
    acsel::gui::SloPanel* panel_ = nullptr;
    acsel::gui::ParetoPlot* plot_ = nullptr;
    acsel::gui::BandEditor* editor_ = nullptr;
    acsel::gui::RecipeCard* card_ = nullptr;
    acsel::gui::CompareModel* compare_ = nullptr;
    acsel::gui::FitQualityPlot* fits_ = nullptr;
    acsel::gui::CompareTable* compareView_ = nullptr;
    QLabel* banner_ = nullptr;
    QLabel* counts_ = nullptr;
    double rescoreMs_ = 0;
};
