// The request panel: stack, workload, concurrency, serving mode, the three budgets, the
// margin inside them and the confidence gate, the part
// of the space to consider (models, formats, scopes) and the search algorithm. Every user edit
// emits requestChanged once (slider drags continuously, for the cheap re-scoring), and
// requestSettled once the hand rests (a single-shot timer, for the search), at once for a typed
// value (committed when typing pauses or on Enter). A typed value the core's check refuses is
// marked red with the reason and not used (widgets/checkedentry.h).
#pragma once

#include "core/model/config.h"
#include "core/model/workspace.h"
#include "core/search/budgetmargin.h"
#include "viewmodel/explorertypes.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QSpinBox;
class QTimer;

namespace acsel::gui
{

class BudgetSlider;
class CheckedEntry;

class SloPanel : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kSettleMs = 300;

    explicit SloPanel(QWidget* parent = nullptr);

    // Fills the stack and model choices (all models of the first family checked; the family
    // list starts with "All families").
    void setWorkspace(const acsel::Workspace& ws);
    // Programmatic (e.g. restoring settings): emits nothing. Unknown stacks are ignored.
    void setRequest(const acsel::Request& r);
    void setFilter(const SpaceFilter& f);
    void setAlgorithm(SearchAlgorithmChoice a);   // programmatic: emits nothing
    void setMargin(const acsel::BudgetMargin& m); // programmatic: emits nothing
    // The confidence gate's P (0.5: off), as acsel search --confidence; programmatic: emits
    // nothing. A value not offered is added to the choices.
    void setConfidence(double p);
    double confidence() const;
    // Enabled only while an FMC file with intervals is loaded; else off, and `why` (the
    // tooltip) says what it needs.
    void setConfidenceAvailable(bool available, const QString& why);
    acsel::Request request() const;
    acsel::BudgetMargin margin() const;
    SpaceFilter filter() const;
    SearchAlgorithmChoice algorithm() const; // nullopt: Automatic

    // The device's memory in GiB (0: not stated). The request keeps the user's memory budget
    // even above it (the gate uses the smaller); the slider shows the cap and says so.
    double memoryCapGiB() const;
    QLabel* memoryCapNote() const { return memoryCap_; }
    QComboBox* familyBox() const { return family_; }
    QListWidget* formatList() const { return formats_; }

    BudgetSlider* ttftSlider() const { return ttft_; }
    BudgetSlider* tpotSlider() const { return tpot_; }
    BudgetSlider* memorySlider() const { return memory_; }
    QComboBox* stackBox() const { return stack_; }
    QDoubleSpinBox* marginBox() const { return margin_; }
    QComboBox* confidenceBox() const { return confidence_; }
    CheckedEntry* marginEntry() const { return marginEntry_; }

signals:
    void requestChanged(const acsel::Request& r);
    void requestSettled(const acsel::Request& r);
    void filterChanged(const acsel::gui::SpaceFilter& f);
    void algorithmChanged(acsel::gui::SearchAlgorithmChoice a);
    // The user set the margin (then requestSettled follows: it is searched at once).
    void marginChanged(const acsel::BudgetMargin& m);
    // The user chose another confidence (0.5: off).
    void confidenceChanged(double p);

private:
    void onEdited();
    void onStackChanged();
    void onFamilyChanged();
    void fillChecks(QListWidget* list, const QStringList& names, const std::vector<int>& values);
    void showMemoryBudget();

    const acsel::Workspace* ws_ = nullptr;
    QComboBox* stack_ = nullptr;
    QComboBox* family_ = nullptr;
    QComboBox* mode_ = nullptr;
    QComboBox* algorithm_ = nullptr;
    QSpinBox* isl_ = nullptr;
    QSpinBox* osl_ = nullptr;
    QSpinBox* concurrency_ = nullptr;
    QSpinBox* gpus_ = nullptr;
    CheckedEntry* islEntry_ = nullptr;
    CheckedEntry* oslEntry_ = nullptr;
    CheckedEntry* concurrencyEntry_ = nullptr;
    CheckedEntry* gpusEntry_ = nullptr;
    CheckedEntry* marginEntry_ = nullptr;
    BudgetSlider* ttft_ = nullptr;
    BudgetSlider* tpot_ = nullptr;
    BudgetSlider* memory_ = nullptr;
    QDoubleSpinBox* margin_ = nullptr;
    QComboBox* confidence_ = nullptr;
    QListWidget* models_ = nullptr;
    QListWidget* formats_ = nullptr;
    QListWidget* scopes_ = nullptr;
    QLabel* memoryCap_ = nullptr;
    QTimer* settle_ = nullptr;
    double memoryWanted_ = 0; // the user's memory budget, kept across smaller devices
    bool updating_ = false;   // set while the panel itself changes controls
};

} // namespace acsel::gui
