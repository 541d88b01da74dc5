#include "widgets/searchprogress.h"

#include "viewmodel/searchrunner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

namespace acsel::gui
{

SearchProgress::SearchProgress(SearchRunner* runner, QWidget* parent) : QWidget(parent)
{
    label_ = new QLabel(tr("Searching"), this);
    bar_ = new QProgressBar(this);
    bar_->setRange(0, 1000);
    bar_->setMaximumWidth(160);
    bar_->setTextVisible(false);
    cancel_ = new QToolButton(this);
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop the running search"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label_);
    layout->addWidget(bar_);
    layout->addWidget(cancel_);
    setVisible(false);
    connect(cancel_, &QToolButton::clicked, runner, &SearchRunner::cancel);
    connect(runner, &SearchRunner::started, this, [this] {
        bar_->setValue(0);
        setVisible(true);
    });
    connect(runner, &SearchRunner::progressChanged, this,
            [this](int, double f) { bar_->setValue(static_cast<int>(f * 1000)); });
    connect(runner, &SearchRunner::cancelled, this, [this] { setVisible(false); });
    connect(runner, &SearchRunner::finished, this, [this] { setVisible(false); });
    connect(runner, &SearchRunner::failed, this, [this] { setVisible(false); });
}

} // namespace acsel::gui
