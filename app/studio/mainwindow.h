// The main window: wires the workspace to the widgets. No algorithm lives here.
#pragma once

#include "core/model/workspace.h"

#include <QMainWindow>

class QLabel;
class QTreeWidget;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    // Replaces the current workspace; on error the old one stays and a dialog says why.
    bool openWorkspace(const QString& workspaceFile, const QString& tablesDir);

private:
    void showWorkspace();

    acsel::Workspace workspace_;
    QTreeWidget* tree_ = nullptr;
    QLabel* banner_ = nullptr;
};
