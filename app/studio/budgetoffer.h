// The line under the banner after the user changes the stack: budgets kept from the last stack
// may never bind on the new one (a small device's budgets on an H100), so the window offers the
// budgets the first start would derive for it, and once they are used, the old ones back.
#pragma once

#include "viewmodel/plotscoring.h"

#include <QWidget>

class QLabel;
class QPushButton;

namespace acsel::studio
{

class BudgetOffer : public QWidget
{
    Q_OBJECT
public:
    explicit BudgetOffer(QWidget* parent = nullptr);
    // Offers `derived` for `stack` in place of `current`; hidden when they are the same.
    void offer(const QString& stack, const acsel::gui::Budgets& derived,
               const acsel::gui::Budgets& current);
    void withdraw(); // hidden, nothing to undo
    QString text() const;
    QPushButton* button() const { return button_; }

signals:
    void budgetsChosen(const acsel::gui::Budgets& budgets);

private:
    enum class Step { Offered, Used };
    void present(Step step);

    QLabel* text_ = nullptr;
    QPushButton* button_ = nullptr;
    QString stack_;
    acsel::gui::Budgets derived_, previous_;
    Step step_ = Step::Offered;
};

} // namespace acsel::studio
