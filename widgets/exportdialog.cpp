#include "widgets/exportdialog.h"

#include "core/export/exportability.h"
#include "widgets/warningstyle.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QVBoxLayout>

using namespace acsel;

namespace
{

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QPlainTextEdit* readOnlyText(QWidget* parent, const QString& name)
{
    auto* t = new QPlainTextEdit(parent);
    t->setObjectName(name);
    t->setReadOnly(true);
    t->setLineWrapMode(QPlainTextEdit::NoWrap);
    t->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return t;
}

} // namespace

ExportDialog::ExportDialog(ExportInput input, std::optional<Stack> stack, QWidget* parent)
    : QDialog(parent), input_(std::move(input)), stack_(std::move(stack))
{
    setWindowTitle(tr("Export for NVIDIA ModelOpt"));
    problems_ = exportProblems(input_.arch, input_.config, stack_ ? &*stack_ : nullptr);

    formatBox_ = new QComboBox(this);
    formatBox_->setObjectName("format");
    for (ExportFormat f : kAllExportFormats)
        formatBox_->addItem(qs(title(f)), static_cast<int>(f));

    auto* recipe = new QLabel(
        qs(input_.arch.name + ": " + input_.config.recipe.describe(input_.arch.isMoe())), this);
    recipe->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_ = new QLabel(this);
    status_->setObjectName("status");
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    loadWarning_ = new QLabel(this);
    loadWarning_->setObjectName("loadWarning");
    loadWarning_->setWordWrap(true);
    loadWarning_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    acsel::gui::styleAsWarning(*loadWarning_);
    loadWarning_->setMargin(4);
    loadWarning_->hide();
    preview_ = readOnlyText(this, "preview");
    howTo_ = readOnlyText(this, "howToApply");
    howTo_->setMaximumHeight(fontMetrics().lineSpacing() * 10);

    copyButton_ = new QPushButton(tr("&Copy to Clipboard"), this);
    copyButton_->setObjectName("copy");
    saveButton_ = new QPushButton(tr("&Save..."), this);
    saveButton_->setObjectName("save");
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(copyButton_, QDialogButtonBox::ActionRole);
    buttons->addButton(saveButton_, QDialogButtonBox::ActionRole);

    auto* form = new QFormLayout;
    form->addRow(tr("Configuration:"), recipe);
    form->addRow(tr("&Format:"), formatBox_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(status_);
    layout->addWidget(loadWarning_);
    layout->addWidget(preview_, 1);
    layout->addWidget(new QLabel(tr("How to apply:"), this));
    layout->addWidget(howTo_);
    layout->addWidget(buttons);

    connect(formatBox_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(copyButton_, &QPushButton::clicked, this, &ExportDialog::copyToClipboard);
    connect(saveButton_, &QPushButton::clicked, this, &ExportDialog::chooseFileAndSave);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(900, 680);
    refresh();
}

ExportFormat ExportDialog::format() const
{
    return static_cast<ExportFormat>(formatBox_->currentData().toInt());
}

void ExportDialog::setFormat(ExportFormat f)
{
    formatBox_->setCurrentIndex(formatBox_->findData(static_cast<int>(f)));
}

QString ExportDialog::previewText() const
{
    return preview_->toPlainText();
}
QString ExportDialog::howToApplyText() const
{
    return howTo_->toPlainText();
}
QString ExportDialog::statusText() const
{
    return status_->text();
}

void ExportDialog::setLoadWarning(const QString& text)
{
    loadWarning_->setText(text);
    loadWarning_->setVisible(!text.isEmpty());
}

QString ExportDialog::loadWarningText() const
{
    return loadWarning_->text();
}

QString ExportDialog::fileNameForSnippet() const
{
    // The saved file only when it holds this format's text: another format is not in it.
    return lastSavedPath_.isEmpty() || lastSavedFormat_ != format()
               ? qs(defaultFileName(format()))
               : QFileInfo(lastSavedPath_).fileName();
}

void ExportDialog::refresh()
{
    const ExportFormat f = format();
    if (!problems_.empty()) {
        QString list;
        for (const std::string& p : problems_)
            list += "  - " + qs(p) + "\n";
        text_.clear();
        preview_->setPlainText(tr("This configuration cannot be exported for ModelOpt:\n") + list);
        status_->setText(tr("Not exportable: %n problem(s). Change the recipe, then export.", "",
                            static_cast<int>(problems_.size())));
        howTo_->clear();
    } else {
        text_ = QString::fromStdString(exportText(f, input_, stack_ ? &*stack_ : nullptr));
        preview_->setPlainText(text_);
        QString status = tr("%1 lines.").arg(text_.count('\n'));
        if (f == ExportFormat::HfQuantConfig)
            status += " " + tr("A preview of what the exported checkpoint will say, not a "
                               "checkpoint file.");
        if (!stack_)
            status += " " + tr("Formats not checked against a stack (no operator tables).");
        status_->setText(status);
        howTo_->setPlainText(
            QString::fromStdString(howToApply(f, fileNameForSnippet().toStdString(), input_.arch)));
    }
    copyButton_->setEnabled(!text_.isEmpty());
    saveButton_->setEnabled(!text_.isEmpty());
}

void ExportDialog::copyToClipboard()
{
    if (!text_.isEmpty())
        QApplication::clipboard()->setText(text_);
}

bool ExportDialog::saveTo(const QString& path, QString* error)
{
    if (text_.isEmpty()) {
        if (error)
            *error = tr("Nothing to save: the configuration is not exportable.");
        return false;
    }
    QSaveFile file(path);
    const QByteArray bytes = text_.toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error =
                tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    lastSavedPath_ = path;
    lastSavedFormat_ = format();
    refresh(); // the snippet names the saved file
    emit saved(path);
    return true;
}

void ExportDialog::chooseFileAndSave()
{
    const QString start =
        lastSavedPath_.isEmpty()
            ? QDir::home().filePath(qs(defaultFileName(format())))
            : QFileInfo(lastSavedPath_).dir().filePath(qs(defaultFileName(format())));
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Export"), start);
    if (path.isEmpty())
        return;
    QString error;
    if (!saveTo(path, &error))
        QMessageBox::warning(this, tr("Export"), error);
}
