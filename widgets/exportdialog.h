// The export dialog: the chosen configuration in one of the three export formats (ModelOpt
// recipe YAML, legacy ModelOpt quant_cfg JSON, hf_quant_config.json preview), a live preview
// of the text, copy to clipboard, save (QSaveFile, atomic) and a short "how to apply" snippet.
// It knows only core types; the main window opens it from the RecipeCard and the File menu.
#pragma once

#include "core/export/exporter.h"

#include <QDialog>
#include <optional>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    // stack: the request's stack, to check its formats (nullopt: not checked, and said so).
    explicit ExportDialog(acsel::ExportInput input,
                          std::optional<acsel::Stack> stack = std::nullopt,
                          QWidget* parent = nullptr);

    acsel::ExportFormat format() const;
    void setFormat(acsel::ExportFormat f);
    bool isExportable() const { return problems_.empty(); }
    QString previewText() const;
    QString howToApplyText() const;
    QString statusText() const;
    // What the engine's load check says of the checkpoint (the lines of acsel launch's check),
    // shown as a warning line above the preview (object name "loadWarning"); empty: hidden.
    void setLoadWarning(const QString& text);
    QString loadWarningText() const;

    // Writes the current text atomically; false with a message in *error on failure.
    bool saveTo(const QString& path, QString* error = nullptr);
    void copyToClipboard();

signals:
    void saved(const QString& path);

private:
    void refresh();
    void chooseFileAndSave();
    QString fileNameForSnippet() const;

    acsel::ExportInput input_;
    std::optional<acsel::Stack> stack_;
    std::vector<std::string> problems_;
    QString text_;
    QString lastSavedPath_;
    acsel::ExportFormat lastSavedFormat_{};
    QComboBox* formatBox_ = nullptr;
    QPlainTextEdit* preview_ = nullptr;
    QPlainTextEdit* howTo_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* loadWarning_ = nullptr;
    QPushButton* copyButton_ = nullptr;
    QPushButton* saveButton_ = nullptr;
};
