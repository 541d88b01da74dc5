#include "mainwindow.h"

#include "core/data/loaderror.h"
#include "core/data/workspacefile.h"
#include "core/model/configspace.h"

#include <QApplication>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTreeWidget>
#include <QVBoxLayout>

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle(tr("ACSeL Studio"));
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    banner_ = new QLabel(central);
    banner_->setWordWrap(true);
    banner_->setVisible(false);
    tree_ = new QTreeWidget(central);
    tree_->setHeaderLabels({tr("Item"), tr("Details")});
    layout->addWidget(banner_);
    layout->addWidget(tree_);
    setCentralWidget(central);
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
    resize(1100, 720);
}

bool MainWindow::openWorkspace(const QString& workspaceFile, const QString& tablesDir)
{
    try {
        workspace_ = acsel::loadWorkspace(workspaceFile.toStdString(), tablesDir.toStdString());
    } catch (const acsel::LoadError& e) {
        QMessageBox::critical(this, tr("Cannot open workspace"), QString::fromStdString(e.what()));
        return false;
    }
    showWorkspace();
    return true;
}

void MainWindow::showWorkspace()
{
    tree_->clear();
    auto* models = new QTreeWidgetItem(tree_, {tr("Models")});
    for (const acsel::ModelArch& m : workspace_.models)
        new QTreeWidgetItem(models,
                            {QString::fromStdString(m.name),
                             tr("%1 layers, %2 B parameters")
                                 .arg(m.layers)
                                 .arg(static_cast<double>(m.paramCount()) / 1e9, 0, 'f', 2)});
    auto* stacks = new QTreeWidgetItem(tree_, {tr("Stacks")});
    for (const acsel::Stack& s : workspace_.stacks) {
        QStringList formats;
        for (acsel::Format f : s.formats)
            formats << QString::fromUtf8(acsel::toString(f).data(),
                                         static_cast<qsizetype>(acsel::toString(f).size()));
        new QTreeWidgetItem(stacks,
                            {QString::fromStdString(s.id), formats.join(QStringLiteral(", "))});
    }
    tree_->expandAll();
    tree_->resizeColumnToContents(0);
    QStringList notes;
    for (const std::string& n : workspace_.notes)
        notes << QString::fromStdString(n);
    banner_->setText(notes.join(QStringLiteral("\n")));
    banner_->setVisible(!notes.isEmpty());
    statusBar()->showMessage(tr("%1 models, %2 stacks loaded from %3")
                                 .arg(workspace_.models.size())
                                 .arg(workspace_.stacks.size())
                                 .arg(QString::fromStdString(workspace_.file)));
}
