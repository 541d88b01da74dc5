// The typical error of the card's "How sure" line from the Surrogate fit tab's rows: the MdAPE
// of TTFT and TPOT on the stack's measured rows, raw or FMC-calibrated, rounded to whole
// percent; without measured rows it says so.
#include "app/studio/engineloading.h"
#include "testmain.h"

using acsel::gui::FitSeries;
using acsel::studio::StackFits;

class TestHowSure : public QObject
{
    Q_OBJECT
private slots:
    void saysTheTypicalErrorOrWhyNone()
    {
        StackFits none;
        QCOMPARE(acsel::studio::howSure(none),
                 std::string("no measured rows of this stack to say how far off the estimate "
                             "is."));
        FitSeries ttft, tpot;
        ttft.measuredMs = tpot.measuredMs = {1, 2, 3};
        ttft.estimatedMs = tpot.estimatedMs = {1, 2, 3};
        ttft.rawMdapePercent = 341.2; // as the fit tab shows on h200_sxm/trtllm TTFT
        tpot.rawMdapePercent = 24.5;  // rounds to 24 (round half to even in printf)
        StackFits raw{{ttft, tpot}, "rows"};
        QCOMPARE(acsel::studio::howSure(raw),
                 std::string("raw estimate, typical error TTFT 341 %, TPOT 24 % on the 3 "
                             "measured rows of this stack."));
        ttft.calibrated = tpot.calibrated = true;
        ttft.mdapePercent = 12.6;
        tpot.mdapePercent = 8.4;
        StackFits fmc{{ttft, tpot}, "rows"};
        QCOMPARE(acsel::studio::howSure(fmc),
                 std::string("FMC-calibrated, typical error TTFT 13 %, TPOT 8 % on the 3 "
                             "measured rows of this stack."));
    }
};

ACSEL_TEST_APPLESS_MAIN(TestHowSure)
#include "test_howsure.moc"
