#include "widgets/slopanel.h"

#include "core/model/tensorparallel.h"
#include "core/model/units.h"
#include "viewmodel/predictiontext.h"
#include "widgets/budgetslider.h"
#include "widgets/checkedentry.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QListWidget>
#include <QScopedValueRollback>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <set>

namespace acsel::gui
{

namespace
{
constexpr double kDefaultCapacityGiB = 192; // when a platform does not state its memory

QSpinBox* spin(QWidget* parent, int lo, int hi, int v)
{
    auto* s = new QSpinBox(parent);
    s->setRange(lo, hi);
    s->setValue(v);
    s->setKeyboardTracking(false);
    return s;
}

std::vector<int> checkedValues(const QListWidget* list)
{
    std::vector<int> out;
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->checkState() == Qt::Checked)
            out.push_back(list->item(i)->data(Qt::UserRole).toInt());
    return out;
}
} // namespace

SloPanel::SloPanel(QWidget* parent) : QWidget(parent)
{
    stack_ = new QComboBox(this);
    // Sized by a short id, not the longest one: the panel fits a laptop's dock without a
    // horizontal scroll bar; a longer id is elided, in full in its tooltip.
    stack_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    stack_->setMinimumContentsLength(9);
    stack_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    family_ = new QComboBox(this);
    mode_ = new QComboBox(this);
    mode_->setObjectName(QStringLiteral("servingMode"));
    mode_->addItem(tr("Static"));
    mode_->setItemData(0, tr("Static batching: the batch runs to completion together"),
                       Qt::ToolTipRole);
    mode_->addItem(tr("Continuous"));
    mode_->setItemData(1, tr("Continuous batching: requests join and leave the running batch"),
                       Qt::ToolTipRole);
    algorithm_ = new QComboBox(this);
    algorithm_->setObjectName(QStringLiteral("searchAlgorithm"));
    // Item 0: the default searcher, as acsel search picks it without --algo.
    algorithm_->addItem(tr("Automatic"));
    algorithm_->setItemData(
        0,
        tr("%1: %2; what acsel search uses without --algo")
            .arg(QString::fromStdString(defaultSearchAlgorithm().info().label),
                 QString::fromStdString(defaultSearchAlgorithm().info().summary)),
        Qt::ToolTipRole);
    for (std::size_t i = 0; i < searchers().size(); ++i) {
        algorithm_->addItem(QString::fromStdString(searchers()[i].label), static_cast<int>(i));
        algorithm_->setItemData(algorithm_->count() - 1,
                                QString::fromStdString(searchers()[i].summary), Qt::ToolTipRole);
    }
    isl_ = spin(this, 1, 131072, 1024);
    osl_ = spin(this, 1, 131072, 256);
    concurrency_ = spin(this, 1, 65536, 1);
    gpus_ = spin(this, 1, kMaxGpus, 1);
    gpus_->setObjectName(QStringLiteral("gpus"));
    gpus_->setToolTip(tr("GPUs of one node available: the search also splits the model over 2, "
                         "4 or 8 of them (tensor parallel). The memory budget is per GPU."));
    isl_->setSuffix(tr(" tokens"));
    osl_->setSuffix(tr(" tokens"));
    islEntry_ = new CheckedEntry(isl_, RequestField::Isl);
    oslEntry_ = new CheckedEntry(osl_, RequestField::Osl);
    concurrencyEntry_ = new CheckedEntry(concurrency_, RequestField::Concurrency);
    gpusEntry_ = new CheckedEntry(gpus_, RequestField::Gpus);
    ttft_ = new BudgetSlider(RequestField::TtftBudget, 1, 100000, true, tr("ms"), 1, this);
    tpot_ = new BudgetSlider(RequestField::TpotBudget, 0.5, 2000, true, tr("ms"), 2, this);
    memory_ = new BudgetSlider(RequestField::MemoryBudget, 0.5, kDefaultCapacityGiB, false,
                               tr("GiB"), 1, this);
    const Request defaults;
    ttft_->setValue(defaults.ttftBudgetMs);
    tpot_->setValue(defaults.tpotBudgetMs);
    memory_->setValue(defaults.memBudgetGiB);
    memoryWanted_ = defaults.memBudgetGiB;
    margin_ = new QDoubleSpinBox(this);
    margin_->setObjectName(QStringLiteral("margin"));
    margin_->setRange(0, 99.9); // the width of its widest valid value; CheckedEntry widens it
    margin_->setDecimals(1);
    margin_->setToolTip(tr("Admit only configurations predicted at least this many percent "
                           "inside every budget (TTFT, TPOT and memory): the gate sees the "
                           "budgets less this share, as acsel search --margin. 0: at the "
                           "budgets; below 100."));
    // Typed as the other fields are: a value outside [0, 100) is marked, never clamped.
    marginEntry_ = new CheckedEntry(margin_, RequestField::Margin);
    confidence_ = new QComboBox(this);
    confidence_->setObjectName(QStringLiteral("confidence"));
    confidence_->addItem(tr("Off"), 0.5);
    for (const double p : {0.8, 0.9, 0.95})
        confidence_->addItem(QString::number(p), p);
    setConfidenceAvailable(false, {});
    memoryCap_ = new QLabel(this);
    memoryCap_->setObjectName(QStringLiteral("memoryCap"));
    memoryCap_->setWordWrap(true);
    memoryCap_->hide();
    models_ = new QListWidget(this);
    formats_ = new QListWidget(this);
    scopes_ = new QListWidget(this);
    for (QListWidget* l : {models_, formats_, scopes_})
        l->setMaximumHeight(110);
    fillChecks(scopes_, {QStringLiteral("full"), QStringLiteral("mlp"), QStringLiteral("attn")},
               {0, 1, 2});

    auto* target = new QGroupBox(tr("Target"), this);
    auto* tf = new QFormLayout(target);
    tf->setRowWrapPolicy(QFormLayout::WrapLongRows); // a large font: fields under labels
    // The stack's id on a row of its own, the panel's whole width: beside the label a
    // laptop's dock cut it ("jetson_agx_thor,").
    auto* stackLabel = new QLabel(tr("Stack"), target);
    stackLabel->setBuddy(stack_);
    tf->addRow(stackLabel);
    tf->addRow(stack_);
    tf->addRow(tr("Input length"), isl_);
    tf->addRow(tr("Output length"), osl_);
    tf->addRow(tr("Concurrency"), concurrency_);
    tf->addRow(tr("GPUs"), gpus_);
    tf->addRow(tr("Serving"), mode_);
    auto* budgets = new QGroupBox(tr("Budgets"), this);
    auto* bf = new QFormLayout(budgets);
    bf->setRowWrapPolicy(QFormLayout::WrapLongRows); // a large font: fields under labels
    bf->addRow(tr("TTFT"), ttft_);
    bf->addRow(tr("TPOT"), tpot_);
    bf->addRow(tr("Memory/GPU"), memory_);
    bf->addRow(QString(), memoryCap_);
    bf->addRow(tr("Margin %"), margin_);
    bf->addRow(tr("Confidence"), confidence_);
    auto* space = new QGroupBox(tr("Space"), this);
    auto* sf = new QFormLayout(space);
    sf->setRowWrapPolicy(QFormLayout::WrapLongRows); // a large font: fields under labels
    sf->addRow(tr("Family"), family_);
    sf->addRow(tr("Models"), models_);
    sf->addRow(tr("Formats"), formats_);
    sf->addRow(tr("Scopes"), scopes_);
    sf->addRow(tr("Search"), algorithm_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(target);
    layout->addWidget(budgets);
    layout->addWidget(space);
    layout->addStretch(1);

    settle_ = new QTimer(this);
    settle_->setSingleShot(true);
    settle_->setInterval(kSettleMs);
    connect(settle_, &QTimer::timeout, this, [this] { emit requestSettled(request()); });
    connect(memory_, &BudgetSlider::valueChanged, this, [this](double v) {
        memoryWanted_ = v; // connected before onEdited, so called before it reads the request
        showMemoryBudget();
    });
    for (BudgetSlider* b : {ttft_, tpot_, memory_})
        connect(b, &BudgetSlider::valueChanged, this, &SloPanel::onEdited);
    for (CheckedEntry* e : {islEntry_, oslEntry_, concurrencyEntry_, gpusEntry_})
        connect(e, &CheckedEntry::committed, this, &SloPanel::onEdited);
    connect(mode_, &QComboBox::currentIndexChanged, this, &SloPanel::onEdited);
    // A valid value once typing pauses, on Enter or an arrow step: searched at once.
    connect(marginEntry_, &CheckedEntry::committed, this, [this] {
        if (updating_)
            return;
        emit marginChanged(margin());
        settle_->stop();
        emit requestSettled(request());
    });
    connect(confidence_, &QComboBox::currentIndexChanged, this, [this] {
        if (!updating_)
            emit confidenceChanged(confidence());
    });
    connect(stack_, &QComboBox::currentIndexChanged, this, &SloPanel::onStackChanged);
    connect(family_, &QComboBox::currentIndexChanged, this, &SloPanel::onFamilyChanged);
    for (QListWidget* l : {models_, formats_, scopes_})
        connect(l, &QListWidget::itemChanged, this, [this] {
            if (!updating_)
                emit filterChanged(filter());
        });
    connect(algorithm_, &QComboBox::currentIndexChanged, this,
            [this] { emit algorithmChanged(algorithm()); });
}

void SloPanel::fillChecks(QListWidget* list, const QStringList& names,
                          const std::vector<int>& values)
{
    const QScopedValueRollback<bool> guard(updating_, true);
    list->clear();
    for (qsizetype i = 0; i < names.size(); ++i) {
        auto* item = new QListWidgetItem(names[i], list);
        item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
        item->setCheckState(Qt::Checked);
        item->setData(Qt::UserRole, values[static_cast<std::size_t>(i)]);
    }
}

void SloPanel::setWorkspace(const Workspace& ws)
{
    ws_ = &ws;
    {
        const QScopedValueRollback<bool> guard(updating_, true);
        const QSignalBlocker b1(stack_);
        const QSignalBlocker b2(family_);
        stack_->clear();
        // The id alone fits the panel's width on a laptop; the device and version are in the
        // item's tooltip.
        for (const Stack& s : ws.stacks) {
            const QString id = QString::fromStdString(s.id);
            stack_->addItem(id, id);
            stack_->setItemData(stack_->count() - 1,
                                QStringLiteral("%1 (%2 %3)")
                                    .arg(id, QString::fromStdString(ws.platformOf(s).name),
                                         QString::fromStdString(s.version)),
                                Qt::ToolTipRole);
        }
        std::set<std::string> families;
        family_->clear();
        family_->addItem(tr("All families"), QString()); // as the CLI searches by default
        for (const ModelArch& m : ws.models)
            if (families.insert(m.family).second)
                family_->addItem(QString::fromStdString(m.family),
                                 QString::fromStdString(m.family));
        family_->setCurrentIndex(family_->count() > 1 ? 1 : 0);
    }
    onFamilyChanged();
    onStackChanged();
}

void SloPanel::onFamilyChanged()
{
    if (!ws_)
        return;
    QStringList names;
    std::vector<int> values;
    const std::string family = family_->currentData().toString().toStdString();
    for (std::size_t i = 0; i < ws_->models.size(); ++i)
        if (family.empty() || ws_->models[i].family == family) {
            names << QString::fromStdString(ws_->models[i].name);
            values.push_back(static_cast<int>(i));
        }
    fillChecks(models_, names, values);
    if (!updating_)
        emit filterChanged(filter());
}

void SloPanel::onStackChanged()
{
    if (!ws_ || stack_->currentIndex() < 0) {
        fillChecks(formats_, {}, {});
        return;
    }
    const Stack& s = ws_->stacks[static_cast<std::size_t>(stack_->currentIndex())];
    QStringList names;
    std::vector<int> values;
    for (Format f : s.formats) {
        names << fromView(toString(f));
        values.push_back(static_cast<int>(f));
    }
    fillChecks(formats_, names, values);
    // The search keeps unquantized bands whatever is checked (core searchFormats): the box
    // says so instead of pretending to be a choice.
    for (int i = 0; i < formats_->count(); ++i)
        if (static_cast<Format>(formats_->item(i)->data(Qt::UserRole).toInt()) == Format::Bf16) {
            const QScopedValueRollback<bool> guard(updating_, true);
            formats_->item(i)->setFlags(Qt::NoItemFlags);
            formats_->item(i)->setToolTip(
                tr("Always searched: every recipe may keep layers unquantized (bf16), so "
                   "bf16 cannot be unchecked."));
        }
    const double cap = ws_->platformOf(s).memCapacityBytes;
    memory_->setRange(0.5, cap > 0 ? cap / kGiB : kDefaultCapacityGiB);
    memory_->setValue(memoryWanted_); // kept; the slider shows the cap, the note says so
    showMemoryBudget();
    memory_->setToolTip(cap > 0 ? tr("Up to the device capacity")
                                : tr("The platform does not state its capacity"));
    if (!updating_) {
        emit filterChanged(filter());
        onEdited();
    }
}

void SloPanel::onEdited()
{
    if (updating_)
        return;
    emit requestChanged(request());
    // A typed value arrives once typing pauses or on Enter (CheckedEntry): search now. Slider
    // drags wait for the hand to rest.
    const QWidget* typing = QApplication::focusWidget();
    if (qobject_cast<const QAbstractSpinBox*>(typing) && isAncestorOf(typing)) {
        settle_->stop();
        emit requestSettled(request());
        return;
    }
    settle_->start(); // restarts while edits keep coming
}

Request SloPanel::request() const
{
    Request r;
    r.stack = stack_->currentData().toString().toStdString();
    // The last valid values: a field marked invalid is not used.
    r.isl = static_cast<int>(islEntry_->lastValid());
    r.osl = static_cast<int>(oslEntry_->lastValid());
    r.concurrency = static_cast<int>(concurrencyEntry_->lastValid());
    r.gpus = static_cast<int>(gpusEntry_->lastValid());
    r.ttftBudgetMs = ttft_->value();
    r.tpotBudgetMs = tpot_->value();
    r.memBudgetGiB = memoryWanted_;
    r.mode = mode_->currentIndex() == 1 ? ServingMode::Continuous : ServingMode::Static;
    return r;
}

SpaceFilter SloPanel::filter() const
{
    SpaceFilter f;
    f.models = checkedValues(models_);
    for (int v : checkedValues(formats_))
        f.formats.push_back(static_cast<Format>(v));
    for (int v : checkedValues(scopes_))
        f.scopes.push_back(static_cast<Scope>(v));
    return f;
}

void SloPanel::setAlgorithm(SearchAlgorithmChoice a)
{
    const QSignalBlocker block(algorithm_);
    algorithm_->setCurrentIndex(a ? algorithm_->findData(static_cast<int>(a->index())) : 0);
}

SearchAlgorithmChoice SloPanel::algorithm() const
{
    const QVariant v = algorithm_->currentData();
    return v.isValid()
               ? SearchAlgorithmChoice(SearchAlgorithm::at(static_cast<std::size_t>(v.toInt())))
               : std::nullopt;
}

void SloPanel::setMargin(const BudgetMargin& m)
{
    const QScopedValueRollback<bool> guard(updating_, true);
    marginEntry_->setValue(m.percent);
}

BudgetMargin SloPanel::margin() const
{
    return {marginEntry_->lastValid()}; // a value marked invalid is not used
}

void SloPanel::setConfidence(double p)
{
    const QScopedValueRollback<bool> guard(updating_, true);
    int i = confidence_->findData(p);
    if (i < 0) {
        confidence_->addItem(QString::number(p), p);
        i = confidence_->count() - 1;
    }
    confidence_->setCurrentIndex(i);
}

double SloPanel::confidence() const
{
    return confidence_->currentData().toDouble();
}

void SloPanel::setConfidenceAvailable(bool available, const QString& why)
{
    if (!available)
        setConfidence(0.5);
    confidence_->setEnabled(available);
    confidence_->setToolTip(
        available ? tr("Admit only configurations whose TTFT and TPOT meet every budget with at "
                       "least this probability: the upper bound of the FMC interval, as acsel "
                       "search --confidence. Off: the calibrated median.")
        : why.isEmpty() ? tr("Needs an FMC calibration with intervals (File > Open FMC "
                             "calibration): none is loaded.")
                        : why);
}

void SloPanel::setRequest(const Request& r)
{
    const QScopedValueRollback<bool> guard(updating_, true);
    const int i = stack_->findData(QString::fromStdString(r.stack));
    if (i >= 0)
        stack_->setCurrentIndex(i);
    onStackChanged();
    islEntry_->setValue(r.isl);
    oslEntry_->setValue(r.osl);
    concurrencyEntry_->setValue(r.concurrency);
    gpusEntry_->setValue(r.gpus);
    mode_->setCurrentIndex(r.mode == ServingMode::Continuous ? 1 : 0);
    ttft_->setValue(r.ttftBudgetMs);
    tpot_->setValue(r.tpotBudgetMs);
    memoryWanted_ = r.memBudgetGiB;
    memory_->setValue(r.memBudgetGiB);
    showMemoryBudget();
}

double SloPanel::memoryCapGiB() const
{
    if (!ws_ || stack_->currentIndex() < 0)
        return 0;
    const Stack& s = ws_->stacks[static_cast<std::size_t>(stack_->currentIndex())];
    return ws_->platformOf(s).memCapacityBytes / kGiB;
}

void SloPanel::showMemoryBudget()
{
    const double cap = memoryCapGiB();
    const bool capped = cap > 0 && memoryWanted_ > cap;
    memoryCap_->setText(capped ? tr("Your budget %1 GiB is above this device's %2 GiB: the "
                                    "search uses %2 GiB.")
                                     .arg(memoryWanted_, 0, 'f', 1)
                                     .arg(cap, 0, 'f', 1)
                               : QString());
    memoryCap_->setVisible(capped);
}

void SloPanel::setFilter(const SpaceFilter& f)
{
    const QScopedValueRollback<bool> guard(updating_, true);
    // The model list shows one family or all: the family of the models asked for, all of them
    // when they come from several.
    if (ws_ && !f.models.empty()) {
        std::set<std::string> families;
        for (const int m : f.models)
            if (m >= 0 && static_cast<std::size_t>(m) < ws_->models.size())
                families.insert(ws_->models[static_cast<std::size_t>(m)].family);
        const QString family =
            families.size() == 1 ? QString::fromStdString(*families.begin()) : QString();
        const int index = std::max(0, family_->findData(family));
        if (index != family_->currentIndex()) {
            const QSignalBlocker block(family_);
            family_->setCurrentIndex(index);
            onFamilyChanged();
        }
    }
    auto apply = [](QListWidget* list, auto contains) {
        for (int i = 0; i < list->count(); ++i)
            list->item(i)->setCheckState(
                contains(list->item(i)->data(Qt::UserRole).toInt()) ? Qt::Checked : Qt::Unchecked);
    };
    apply(models_,
          [&](int v) { return std::find(f.models.begin(), f.models.end(), v) != f.models.end(); });
    apply(formats_, [&](int v) {
        return static_cast<Format>(v) == Format::Bf16 ||
               std::find(f.formats.begin(), f.formats.end(), static_cast<Format>(v)) !=
                   f.formats.end();
    });
    apply(scopes_, [&](int v) {
        return std::find(f.scopes.begin(), f.scopes.end(), static_cast<Scope>(v)) != f.scopes.end();
    });
}

} // namespace acsel::gui
