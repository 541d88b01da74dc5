// A progress bar with a Cancel button for a SearchRunner, for the status bar.
#pragma once

#include <QWidget>

class QProgressBar;
class QToolButton;
class QLabel;

namespace acsel::gui
{

class SearchRunner;

class SearchProgress : public QWidget
{
    Q_OBJECT
public:
    explicit SearchProgress(SearchRunner* runner, QWidget* parent = nullptr);

private:
    QLabel* label_ = nullptr;
    QProgressBar* bar_ = nullptr;
    QToolButton* cancel_ = nullptr;
};

} // namespace acsel::gui
