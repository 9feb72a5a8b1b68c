// `tilescope sweep` against the book's own tables: Figure 7.14 of the 4th
// edition (FLOP per byte of the tiled kernel, IN_TILE_DIM 8 to 32, radius 2
// and 4) and Figure 7.22 of the 3rd (the reduction of input loads of the
// tiled kernel against the basic one, O_TILE_WIDTH 8 to 64, masks 5 and 9),
// the numbers as printed; and the CSV that carries them.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <sys/wait.h>

#include "api/sweep.hpp"

namespace tilescope {
namespace {

const SweepPoint* find(const std::vector<SweepPoint>& points, const std::string& kernel, int block, int r) {
    for (const SweepPoint& p : points)
        if (p.kernel == kernel && p.block == block && p.radius == r) return &p;
    return nullptr;
}

TEST(Sweep, ReproducesFigure7_14) {
    auto points = sweep(SweepRequest{{"conv2d_tiled_in"}, {8, 16, 32}, {2, 4}});
    ASSERT_TRUE(points) << points.error().message;
    const std::map<std::pair<int, int>, double> book{
        {{8, 2}, 3.13}, {{16, 2}, 7.03}, {{32, 2}, 9.57}, {{16, 4}, 10.13}, {{32, 4}, 22.78}};
    for (const auto& [at, printed] : book) {
        const SweepPoint* p = find(*points, "conv2d_tiled_in", at.first, at.second);
        ASSERT_TRUE(p && p->skipped.empty()) << at.first << " " << at.second;
        EXPECT_NEAR(p->measured.flopPerByte, printed, 0.005 + 1e-9) << "IN_TILE_DIM " << at.first;
        ASSERT_TRUE(p->bookFlopPerByte);
        EXPECT_NEAR(*p->bookFlopPerByte, p->measured.flopPerByte, 1e-12);
    }
    // The book's table leaves IN_TILE_DIM 8 at radius 4 empty: no output tile.
    const SweepPoint* none = find(*points, "conv2d_tiled_in", 8, 4);
    ASSERT_TRUE(none);
    EXPECT_NE(none->skipped.find("no output tile"), std::string::npos) << none->skipped;
}

TEST(Sweep, ReproducesFigure7_22) {
    // BLOCK_WIDTH = O_TILE_WIDTH + Mask_Width - 1; past 1024 threads on the CPU executor alone.
    const std::map<std::pair<int, int>, double> book{{{8, 5}, 11.1},  {{16, 5}, 16.0}, {{32, 5}, 19.7},
                                                     {{64, 5}, 22.1}, {{8, 9}, 20.3},  {{16, 9}, 36.0},
                                                     {{32, 9}, 51.8}, {{64, 9}, 64.0}};
    for (const auto& [at, printed] : book) {
        const int o = at.first, mw = at.second;
        auto points = sweep(SweepRequest{{"conv2d_tiled_pitched"}, {o + mw - 1}, {(mw - 1) / 2}});
        ASSERT_TRUE(points) << points.error().message;
        const SweepPoint& p = points->front();
        ASSERT_TRUE(p.skipped.empty()) << p.skipped;
        EXPECT_EQ(p.plan.outTile, o);
        EXPECT_NEAR(p.measured.inputLoadReduction, printed, 0.06) << "O_TILE_WIDTH " << o << ", Mask_Width " << mw;
        ASSERT_TRUE(p.bookInputLoadReduction);
        EXPECT_NEAR(*p.bookInputLoadReduction, p.measured.inputLoadReduction, 1e-9);
    }
}

TEST(Sweep, TheBasicAndConstantKernelsMatchTheirClosedForms) {
    auto points = sweep(SweepRequest{{"conv2d_basic", "conv2d_const", "conv1d_tiled", "conv2d_tiled_out"}, {8, 16}, {1, 3}});
    ASSERT_TRUE(points) << points.error().message;
    for (const SweepPoint& p : *points) {
        ASSERT_TRUE(p.skipped.empty()) << p.kernel << ": " << p.skipped;
        ASSERT_TRUE(p.bookFlopPerByte && p.bookGlobalLoadsPerOutput) << p.kernel;
        EXPECT_NEAR(p.measured.flopPerByte, *p.bookFlopPerByte, 1e-9) << p.kernel << " " << p.block << " " << p.radius;
        EXPECT_NEAR(p.measured.globalLoadsPerOutput, *p.bookGlobalLoadsPerOutput, 1e-9) << p.kernel;
    }
}

std::string readAll(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST(SweepCommand, WritesTheCsvAndRefusesAPathItCannotWrite) {
    const std::string dir = std::filesystem::temp_directory_path() / "tilescope-sweep-test";
    std::filesystem::create_directories(dir);
    const std::string csv = dir + "/fig7_14.csv";
    const std::string cmd = std::string(TILESCOPE_BINARY) + " sweep --kernel conv2d_tiled_in --block 16 --radius 2 "
                            "--no-gpu --csv " + csv + " > /dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    const std::string text = readAll(csv);
    std::istringstream lines(text);
    std::string header, row;
    std::getline(lines, header);
    std::getline(lines, row);
    EXPECT_EQ(header.rfind("kernel,dims,block,radius,", 0), 0u);
    // flop_per_byte and book_flop_per_byte: 7200 FLOPs over 1024 bytes.
    EXPECT_NE(row.find(",7.03125,7.03125,"), std::string::npos) << row;
    const std::string bad = std::string(TILESCOPE_BINARY) + " sweep --kernel conv2d_tiled_in --block 16 --radius 2 "
                            "--no-gpu --csv " + dir + "/no/such/folder/x.csv > /dev/null 2>&1";
    const int status = std::system(bad.c_str());
    EXPECT_EQ(WEXITSTATUS(status), 2);
    EXPECT_FALSE(std::filesystem::exists(dir + "/no/such/folder/x.csv.part"));
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tilescope
