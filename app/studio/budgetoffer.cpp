#include "budgetoffer.h"

#include "viewmodel/predictiontext.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace acsel::studio
{

using acsel::gui::Budgets;

namespace
{
QString offeredBudgetsText(const Budgets& b)
{
    return QStringLiteral("TTFT %1, TPOT %2, memory %3")
        .arg(acsel::gui::formatMs(b.ttftMs), acsel::gui::formatMs(b.tpotMs),
             acsel::gui::formatGiB(b.memoryGiB));
}
} // namespace

BudgetOffer::BudgetOffer(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("budgetOffer"));
    text_ = new QLabel(this);
    text_->setWordWrap(true);
    button_ = new QPushButton(this);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    layout->addWidget(text_, 1);
    layout->addWidget(button_);
    connect(button_, &QPushButton::clicked, this, [this] {
        if (step_ == Step::Offered) {
            emit budgetsChosen(derived_);
            present(Step::Used);
        } else {
            emit budgetsChosen(previous_);
            withdraw();
        }
    });
    hide();
}

void BudgetOffer::offer(const QString& stack, const Budgets& derived, const Budgets& current)
{
    stack_ = stack;
    derived_ = derived;
    previous_ = current;
    if (derived == current)
        withdraw();
    else
        present(Step::Offered);
}

void BudgetOffer::withdraw()
{
    hide();
}

void BudgetOffer::present(Step step)
{
    step_ = step;
    if (step == Step::Offered) {
        text_->setText(tr("The budgets were set for another stack. For %1 the first start's rule "
                          "gives %2.")
                           .arg(stack_, offeredBudgetsText(derived_)));
        button_->setText(tr("Use them"));
    } else {
        text_->setText(tr("Budgets derived for %1: %2.").arg(stack_, offeredBudgetsText(derived_)));
        button_->setText(tr("Back to the previous budgets"));
    }
    setVisible(true);
}

QString BudgetOffer::text() const
{
    return text_->text();
}

} // namespace acsel::studio
