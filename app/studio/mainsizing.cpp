// MainWindow's "By GPUs" dock: the sizing table for the current request, computed on a runner
// of its own after the request's answer is in, and only while the dock is shown.
#include "mainwindow.h"
#include "viewmodel/searchrunner.h"
#include "widgets/sizingtable.h"

#include <QDockWidget>

using acsel::gui::SearchRunner;
using acsel::gui::SizingOutcome;
using acsel::gui::SizingTable;

QDockWidget* MainWindow::buildSizingDock()
{
    sizing_ = new SizingTable(this);
    sizingRunner_ = new SearchRunner(this);
    sizingDock_ = new QDockWidget(tr("By GPUs"), this);
    sizingDock_->setObjectName(QStringLiteral("byGpus"));
    sizingDock_->setWidget(sizing_);
    addDockWidget(Qt::RightDockWidgetArea, sizingDock_);
    connect(sizingDock_, &QDockWidget::visibilityChanged, this, [this](bool shown) {
        if (shown)
            updateSizing();
    });
    // The table says at once when it no longer answers the request.
    connect(state_, &acsel::studio::ExplorerState::keyChanged, this, [this] {
        if (sizingKey_ && !state_->isCurrent(*sizingKey_))
            sizing_->setPending(tr("For an earlier request: recomputed once this request's "
                                   "answer is in."));
    });
    return sizingDock_;
}

void MainWindow::updateSizing()
{
    const acsel::studio::SearchKey key = state_->key();
    if (!sizeByGpus_ || !sizingDock_->isVisible() || (sizingKey_ && *sizingKey_ == key) ||
        !(cardKey_ && *cardKey_ == key))
        return;
    sizing_->setPending(tr("Searching with 1, 2, 4 and 8 GPUs..."));
    sizingRunner_->start<std::vector<SizingOutcome>>(
        [size = sizeByGpus_, key,
         gated = acsel::studio::gatedRequest(ws_.get(), key.request, key.margin)](
            const SearchRunner::ProgressFn& progress, const std::atomic<bool>& stop) {
            return size(gated, key.filter, key.algorithm, progress, stop);
        },
        [this, key](int, const std::vector<SizingOutcome>& rows) {
            if (!state_->isCurrent(key))
                return; // the next answer starts the current one
            sizingKey_ = key;
            sizing_->setRows(rows, [this](int model) { return modelName(model); });
        });
}
