// Files and the OS: every loader reads through readInputFile, which takes regular files only
// (a FIFO, a directory, /dev/zero refused before they are opened, so nothing blocks), holds
// each kind of file to a size limit, and turns every filesystem error into a LoadError naming
// the path; the tables-folder walk does the same for symlink loops.
#include "core/data/inputfile.h"
#include "core/data/jsonfields.h"
#include "core/data/loaderror.h"
#include "core/data/tablesdir.h"
#include "loaderrors.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

using namespace acsel;
namespace fs = std::filesystem;

namespace
{

void writeFile(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

} // namespace

class TestInputFile : public QObject
{
    Q_OBJECT
private slots:
    void regularFileIsReadWhole();
    void fifoIsRefusedWithoutBlocking();
    void directoryAndDeviceAreRefused();
    void sizeLimitIsExact();
    void symlinkLoopAndMissingFileNameThePath();
    void nonUtf8PathIsRead();
    void tablesFolderSymlinkLoopIsALoadError();

private:
    QTemporaryDir dir_;
    std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }
};

void TestInputFile::regularFileIsReadWhole()
{
    writeFile(path("a.json"), "{\"a\": 1}\n");
    QCOMPARE(readInputFile(path("a.json"), kJsonLimit), std::string("{\"a\": 1}\n"));
    writeFile(path("empty.json"), "");
    QCOMPARE(readInputFile(path("empty.json"), kJsonLimit), std::string());
    // Through a symlink: the target is what counts.
    fs::create_symlink(path("a.json"), path("link.json"));
    QCOMPARE(parseJsonFile(path("link.json"))["a"].get<int>(), 1);
}

void TestInputFile::fifoIsRefusedWithoutBlocking()
{
    const std::string fifo = path("fifo.json");
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    // On a worker, so that a regression (an open that blocks) fails here instead of hanging:
    // opening the writing end then releases the reader.
    auto result =
        std::async(std::launch::async, [&] { return errorOf([&] { parseJsonFile(fifo); }); });
    if (result.wait_for(std::chrono::seconds(5)) == std::future_status::timeout) {
        std::ofstream release(fifo);
        QFAIL("reading a FIFO blocked");
    }
    QCOMPARE(result.get(), fifo + ": is a FIFO (named pipe): expected a regular file");
}

void TestInputFile::directoryAndDeviceAreRefused()
{
    // A directory was reported as "file is empty".
    QCOMPARE(errorOf([&] { parseJsonFile(dir_.path().toStdString()); }),
             dir_.path().toStdString() + ": is a directory: expected a regular file");
    // /dev/zero was read until memory ran out.
    QCOMPARE(errorOf([&] { readInputFile("/dev/zero", kCsvLimit); }),
             std::string("/dev/zero: is a character device: expected a regular file"));
}

void TestInputFile::sizeLimitIsExact()
{
    constexpr InputLimit kTiny{"a test file", 16};
    writeFile(path("16.txt"), std::string(16, 'x'));
    writeFile(path("17.txt"), std::string(17, 'x'));
    QCOMPARE(readInputFile(path("16.txt"), kTiny).size(), std::size_t{16});
    QCOMPARE(errorOf([&] { readInputFile(path("17.txt"), kTiny); }),
             path("17.txt") + ": file has 17 bytes: expected a test file of at most 16 bytes");
    // A sparse file one byte over the JSON limit is refused from its size, unread.
    {
        std::ofstream big(path("big.json"), std::ios::binary);
        big.seekp(static_cast<std::streamoff>(kJsonLimit.maxBytes));
        big.put('}');
    }
    QCOMPARE(errorOf([&] { parseJsonFile(path("big.json")); }),
             path("big.json") + ": file has 67108865 bytes: expected a JSON document of at most "
                                "64 MiB");
}

void TestInputFile::symlinkLoopAndMissingFileNameThePath()
{
    fs::create_symlink(path("loop.json"), path("loop.json"));
    QCOMPARE(errorOf([&] { parseJsonFile(path("loop.json")); }),
             path("loop.json") +
                 ": cannot open file for reading (Too many levels of symbolic links)");
    QCOMPARE(errorOf([&] { parseJsonFile(path("none.json")); }),
             path("none.json") + ": cannot open file for reading (No such file or directory)");
}

void TestInputFile::nonUtf8PathIsRead()
{
    const std::string name = path("caf\xe9.json"); // Latin-1 e-acute: not UTF-8
    writeFile(name, "[1]");
    QCOMPARE(parseJsonFile(name).size(), std::size_t{1});
}

void TestInputFile::tablesFolderSymlinkLoopIsALoadError()
{
    // <dir>/gpu is a symlink to itself: the walk once escaped as a std::filesystem exception
    // (exit 1, "internal error").
    const std::string tables = path("tables");
    fs::create_directory(tables);
    fs::create_symlink(tables + "/gpu", tables + "/gpu");
    QCOMPARE(errorOf([&] { discoverStacks(tables); }),
             tables + "/gpu: cannot read (Too many levels of symbolic links)");
}

ACSEL_TEST_APPLESS_MAIN(TestInputFile)
#include "test_inputfile.moc"
