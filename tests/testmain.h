// The test files of a layer link into one executable instead of one each: unity-built in
// batches, a batch parses Qt Test and the model headers once for several files, and one link
// replaces a dozen. Each file registers its test object with one of the macros below (in place
// of QTEST_MAIN and its kin); the executable's main (testmain.cpp) runs the object its first
// argument names, so CTest still runs every file as a test and a process of its own.
#pragma once

#include <QTest>
#include <functional>
#include <memory>

namespace acsel::testing
{

// The application object a test runs under, as the QTEST_*MAIN macros make it.
enum class TestApp : unsigned char {
    None, // QTEST_APPLESS_MAIN
    Core, // QTEST_GUILESS_MAIN
    Full, // QTEST_MAIN: QApplication with Qt Widgets, QGuiApplication with Qt Gui, else Core
};

// Registers the test object of `file` (its name without directory and extension, e.g.
// "test_fmcchoice", is the argument that selects it); returns a value to initialise a static
// with. Names cannot repeat: an executable's files are of one directory.
int registerTest(const char* file, TestApp app, std::function<std::unique_ptr<QObject>()> make);

} // namespace acsel::testing

#define ACSEL_TEST_REGISTER(TestClass, app)                                                        \
    namespace                                                                                      \
    {                                                                                              \
    const int acselRegistered##TestClass = acsel::testing::registerTest(                           \
        __FILE__, app, [] { return std::unique_ptr<QObject>(new TestClass); });                    \
    }
#define ACSEL_TEST_MAIN(TestClass) ACSEL_TEST_REGISTER(TestClass, acsel::testing::TestApp::Full)
#define ACSEL_TEST_GUILESS_MAIN(TestClass)                                                         \
    ACSEL_TEST_REGISTER(TestClass, acsel::testing::TestApp::Core)
#define ACSEL_TEST_APPLESS_MAIN(TestClass)                                                         \
    ACSEL_TEST_REGISTER(TestClass, acsel::testing::TestApp::None)
