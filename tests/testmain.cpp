// main of a layer's test executable: `<layer>_tests test_name [Qt Test arguments]` runs the
// test object registered by tests/<layer>/test_name.cpp under the application object its macro
// asks for, as QTEST_MAIN and its kin would in an executable of its own.
#include "testmain.h"

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#if defined(QT_WIDGETS_LIB)
#include <QApplication>
using FullApplication = QApplication;
#elif defined(QT_GUI_LIB)
#include <QGuiApplication>
using FullApplication = QGuiApplication;
#else
using FullApplication = QCoreApplication;
#endif

namespace acsel::testing
{
namespace
{

struct Registered {
    TestApp app = TestApp::None;
    std::function<std::unique_ptr<QObject>()> make;
};

std::map<std::string, Registered>& registry()
{
    static std::map<std::string, Registered> tests;
    return tests;
}

std::string testName(const std::string& file)
{
    const std::size_t slash = file.find_last_of("/\\");
    std::string name = slash == std::string::npos ? file : file.substr(slash + 1);
    return name.substr(0, name.rfind('.'));
}

int run(const Registered& test, int argc, char** argv)
{
    std::unique_ptr<QCoreApplication> app;
    if (test.app == TestApp::Core)
        app = std::make_unique<QCoreApplication>(argc, argv);
    if (test.app == TestApp::Full) {
        app = std::make_unique<FullApplication>(argc, argv);
        QCoreApplication::setAttribute(Qt::AA_Use96Dpi, true);
    }
    const std::unique_ptr<QObject> object = test.make();
    return QTest::qExec(object.get(), argc, argv);
}

} // namespace

int registerTest(const char* file, TestApp app, std::function<std::unique_ptr<QObject>()> make)
{
    registry().emplace(testName(file), Registered{app, std::move(make)});
    return 0;
}

} // namespace acsel::testing

int main(int argc, char** argv)
{
    using namespace acsel::testing;
    const auto found = argc >= 2 ? registry().find(argv[1]) : registry().end();
    if (found == registry().end()) {
        std::fprintf(stderr, "usage: %s TEST [Qt Test arguments]; TEST is one of:\n", argv[0]);
        for (const auto& [name, test] : registry())
            std::fprintf(stderr, "  %s\n", name.c_str());
        return 2;
    }
    // Qt Test sees the program and the arguments after the test's name.
    std::vector<char*> args{argv[0]};
    args.insert(args.end(), argv + 2, argv + argc);
    args.push_back(nullptr);
    return run(found->second, argc - 1, args.data());
}
