// `tilescope export`, read back by programs other than ours: the GIF by
// Python's PIL, the SVG rendered by rsvg-convert (librsvg), the MP4 by
// libavformat, the PNGs by stb_image; each compared with a screenshot of the
// same set-up at the same step, at the cells the layout JSON places. Then
// bad requests: one line, exit 2, and no file left behind. They need an X
// display (xvfb-run) and skip without one; a missing reader skips its test.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "app_driver.hpp"
#include "export/frame_writer.hpp"
#include "io/image_file.hpp"

#if TILESCOPE_TEST_FFMPEG
extern "C" {
#include <libavformat/avformat.h>
}
#endif

namespace tilescope::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Rgb {
    int r = 0, g = 0, b = 0;
};

std::string describe(Rgb c) {
    return "(" + std::to_string(c.r) + ", " + std::to_string(c.g) + ", " + std::to_string(c.b) + ")";
}

::testing::AssertionResult near(Rgb actual, Rgb expected, int tolerance) {
    const int d =
        std::max({std::abs(actual.r - expected.r), std::abs(actual.g - expected.g), std::abs(actual.b - expected.b)});
    if (d <= tolerance)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "pixel " << describe(actual) << ", expected " << describe(expected);
}

Rgb pixelOf(const Image& image, double x, double y) {
    const int px = static_cast<int>(x), py = static_cast<int>(y);
    auto c = [&](int channel) { return static_cast<int>(std::lround(image.at(px, py, channel) * 255.0f)); };
    return {c(0), c(1), c(2)};
}

std::string slurp(const fs::path& file) { return AppDriver::slurp(file); }

// The set-up every test exports: the book's tiled kernel on a 16 x 16
// gradient, 8 x 8 blocks (6 x 6 output tiles), the corner block selected.
const std::string kSetUp =
    "--backend cpu --kernel conv2d_tiled_in --builtin gradient --input-size 16x16 --radius 1 --block 8 "
    "--select 0,0 --panels grid,threads";

class ExportTest : public ::testing::Test {
protected:
    void SetUp() override {
        const char* display = std::getenv("DISPLAY");
        if (!display || !*display)
            GTEST_SKIP() << "no X display: run under xvfb-run";
        m_app = std::make_unique<AppDriver>(std::string("export_") +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    }

    int run(const std::string& arguments, std::string* errors = nullptr) {
        return m_app->run(arguments, nullptr, errors);
    }

    // `tilescope export` of kSetUp in a 1280 x 800 window.
    int exportWith(const std::string& arguments, std::string* errors = nullptr) {
        return run("export --window 1280x800 " + kSetUp + " " + arguments, errors);
    }

    // A screenshot of kSetUp at `step`, and where things were drawn.
    AppShot screenshot(int step) {
        AppShot shot = m_app->screenshot("--size 1280x800 " + kSetUp + " --step " + std::to_string(step));
        EXPECT_EQ(shot.exitCode, 0) << shot.errors;
        return shot;
    }

    // A python3 with PIL (Debian's python3-pil), or empty.
    static std::string pythonWithPil() {
        for (const char* candidate : {"/usr/bin/python3", "python3"})
            if (std::system((std::string(candidate) + " -c 'import PIL' > /dev/null 2>&1").c_str()) == 0)
                return candidate;
        return {};
    }

    fs::path dir() const { return m_app->dir(); }

private:
    std::unique_ptr<AppDriver> m_app;
};

TEST_F(ExportTest, GifIsReadBackByPilWithItsFramesSizeAndTheScreensColours) {
    const std::string python = pythonWithPil();
    if (python.empty())
        GTEST_SKIP() << "no python3 with PIL (python3-pil): the GIF cannot be read back by another program";
    const fs::path gif = dir() / "steps.gif";
    std::string errors;
    ASSERT_EQ(exportWith("--gif '" + gif.string() + "' --from 0 --to 12 --every 3 --fps 5", &errors), 0) << errors;
    EXPECT_NE(errors.find("5 frames"), std::string::npos) << errors;  // 0, 3, 6, 9, 12
    EXPECT_FALSE(fs::exists(dir() / "steps.gif.part"));

    const AppShot shot = screenshot(0);
    const ShotRect window = shot.rect("grid.window");
    const ShotRect cell0 = shot.rect("grid.cell0");
    const double cell = cell0.width();
    ASSERT_GT(cell, 8.0);
    // Cells of the corner block's tile, a quarter of a cell in from their corner.
    std::vector<std::array<double, 2>> points;
    for (auto [x, y] : {std::pair{1, 1}, std::pair{3, 2}, std::pair{5, 5}, std::pair{7, 3}})
        points.push_back({cell0.x0 + cell * (x + 0.3), cell0.y0 + cell * (y + 0.3)});

    // PIL: frame count, size, the duration, and frame 0's pixels at the points (relative to the view).
    const fs::path script = dir() / "read_gif.py";
    std::ofstream(script) << "import sys\nfrom PIL import Image\nim = Image.open(sys.argv[1])\n"
                             "print(im.n_frames, im.size[0], im.size[1], im.info.get('duration', -1), "
                             "im.info.get('loop', -1))\n"
                             "im.seek(0)\nrgb = im.convert('RGB')\n"
                             "for i in range(2, len(sys.argv), 2):\n"
                             "    print(*rgb.getpixel((int(float(sys.argv[i])), int(float(sys.argv[i + 1])))))\n";
    std::string command = python + " '" + script.string() + "' '" + gif.string() + "'";
    for (const auto& p : points)
        command += " " + std::to_string(p[0] - window.x0) + " " + std::to_string(p[1] - window.y0);
    command += " > '" + (dir() / "pil.txt").string() + "'";
    ASSERT_EQ(std::system(command.c_str()), 0);
    std::istringstream pil(slurp(dir() / "pil.txt"));
    int frames = 0, width = 0, height = 0, duration = 0, loop = 0;
    pil >> frames >> width >> height >> duration >> loop;
    EXPECT_EQ(frames, 5);
    EXPECT_NEAR(width, window.width(), 1.0);
    EXPECT_NEAR(height, window.height(), 1.0);
    EXPECT_EQ(duration, 200);  // 5 frames a second
    EXPECT_EQ(loop, 0);        // for ever
    for (const auto& p : points) {
        Rgb gifColour;
        pil >> gifColour.r >> gifColour.g >> gifColour.b;
        // The gradient's values and the text's edges give the view more than
        // 256 colours: giflib's quantizer keeps 5 bits a channel of them.
        EXPECT_TRUE(near(gifColour, pixelOf(shot.picture, p[0], p[1]), 10)) << "at " << p[0] << ", " << p[1];
    }
}

TEST_F(ExportTest, SvgRenderedByRsvgConvertHasTheScreensColoursAtTheTilesCells) {
    if (std::system("rsvg-convert --version > /dev/null 2>&1") != 0)
        GTEST_SKIP() << "no rsvg-convert (librsvg2-bin): the SVG cannot be rendered by another program";
    const fs::path svg = dir() / "tile.svg", png = dir() / "tile.png";
    std::string errors;
    ASSERT_EQ(exportWith("--svg '" + svg.string() + "' --step 10", &errors), 0) << errors;
    ASSERT_EQ(std::system(("rsvg-convert '" + svg.string() + "' -o '" + png.string() + "'").c_str()), 0);
    auto rendered = io::readImageFile(png);
    ASSERT_TRUE(rendered.ok());

    // Where the SVG put the cells, from its own attributes.
    const std::string text = slurp(svg);
    std::smatch m;
    ASSERT_TRUE(std::regex_search(text, m,
                                  std::regex("data-cell=\"([0-9.]+)\" data-cell0=\"([-0-9.]+) ([-0-9.]+)\" "
                                             "data-input-tile=\"(-?[0-9]+) (-?[0-9]+) (-?[0-9]+) (-?[0-9]+)\"")));
    const double svgCell = std::stod(m[1]), svgX = std::stod(m[2]), svgY = std::stod(m[3]);
    const int tx0 = std::stoi(m[4]), ty0 = std::stoi(m[5]), tx1 = std::stoi(m[6]), ty1 = std::stoi(m[7]);
    EXPECT_EQ(tx1 - tx0, 8);  // the input tile is the block: 8 x 8
    EXPECT_EQ(ty1 - ty0, 8);

    const AppShot shot = screenshot(10);
    const ShotRect cell0 = shot.rect("grid.cell0");
    const double cell = cell0.width();
    int compared = 0;
    // Every cell of the input tile (ghosts included), at three places away
    // from the values (shown on screen when the cells are large enough) and
    // the loads' marks: corners and the top edge, inside the halo band's width.
    for (int y = ty0; y < ty1; ++y)
        for (int x = tx0; x < tx1; ++x)
            for (auto [u, v] : {std::pair{0.1, 0.1}, std::pair{0.5, 0.1}, std::pair{0.9, 0.9}}) {
                const Rgb screen = pixelOf(shot.picture, cell0.x0 + cell * (x + u), cell0.y0 + cell * (y + v));
                const Rgb vector = pixelOf(*rendered, svgX + svgCell * (x + u), svgY + svgCell * (y + v));
                EXPECT_TRUE(near(vector, screen, 12)) << "cell (" << x << ", " << y << ") at " << u << ", " << v;
                ++compared;
            }
    EXPECT_EQ(compared, 192);
    EXPECT_NE(text.find("halo</text>"), std::string::npos) << "the legend names the halo";
}

TEST_F(ExportTest, PngSequenceHasAFilePerFrameAtTheAskedSize) {
    const fs::path folder = dir() / "frames";
    std::string errors;
    ASSERT_EQ(exportWith("--png-dir '" + folder.string() + "' --view threads --from 0 --to 7 --every 3 --size 320x240",
                         &errors),
              0)
        << errors;
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(folder))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"frame_0000.png", "frame_0001.png", "frame_0002.png",
                                               "frame_0003.png"}));  // steps 0, 3, 6 and the last, 7
    for (const std::string& name : names) {
        auto picture = io::readImageFile(folder / name);
        ASSERT_TRUE(picture.ok());
        EXPECT_EQ(picture->width, 320);
        EXPECT_EQ(picture->height, 240);
    }
    EXPECT_FALSE(fs::exists(dir() / "frames.part"));
    // Again into the same folder: an earlier export's frames are replaced.
    ASSERT_EQ(exportWith("--png-dir '" + folder.string() + "' --from 0 --to 1", &errors), 0) << errors;
    EXPECT_EQ(std::distance(fs::directory_iterator(folder), fs::directory_iterator{}), 2);
}

TEST_F(ExportTest, Mp4IsReadBackByLibavformat) {
    const fs::path mp4 = dir() / "steps.mp4";
    std::string errors;
    if (!exports::mp4Available()) {
        EXPECT_EQ(exportWith("--mp4 '" + mp4.string() + "'", &errors), 2);
        EXPECT_NE(errors.find(exports::kNoMp4), std::string::npos) << errors;
        GTEST_SKIP() << "this build has no MP4 export: checked that it says so";
    }
    ASSERT_EQ(exportWith("--mp4 '" + mp4.string() + "' --from 0 --to 9 --fps 10 --size 320x241", &errors), 0) << errors;
#if TILESCOPE_TEST_FFMPEG
    AVFormatContext* format = nullptr;
    ASSERT_EQ(avformat_open_input(&format, mp4.c_str(), nullptr, nullptr), 0);
    ASSERT_GE(avformat_find_stream_info(format, nullptr), 0);
    const int video = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    ASSERT_GE(video, 0);
    const AVCodecParameters* codec = format->streams[video]->codecpar;
    EXPECT_EQ(codec->width, 320);
    EXPECT_EQ(codec->height, 242);  // 4:2:0 needs an even height: the last row is repeated
    int frames = 0;
    AVPacket* packet = av_packet_alloc();
    while (av_read_frame(format, packet) >= 0) {
        frames += packet->stream_index == video;
        av_packet_unref(packet);
    }
    av_packet_free(&packet);
    avformat_close_input(&format);
    EXPECT_EQ(frames, 10);
#else
    GTEST_SKIP() << "the tests were built without libavformat: the MP4 was written but not read back";
#endif
}

TEST_F(ExportTest, APathThatCannotBeWrittenSaysSoAndLeavesNothing) {
    std::ofstream(dir() / "a-file") << "not a folder";
    std::string errors;
    EXPECT_EQ(exportWith("--gif '" + (dir() / "a-file" / "x.gif").string() + "'", &errors), 2);
    EXPECT_NE(errors.find("cannot be written"), std::string::npos) << errors;
    EXPECT_EQ(std::count(errors.begin(), errors.end(), '\n'), 1) << errors;

    EXPECT_EQ(exportWith("--gif '" + (dir() / "missing" / "x.gif").string() + "'", &errors), 2);
    EXPECT_NE(errors.find("does not exist"), std::string::npos) << errors;

    // A folder the writer cannot create a file in (/proc refuses new files, even to root).
    EXPECT_EQ(exportWith("--gif /proc/tilescope-export-test.gif --to 3", &errors), 2);
    EXPECT_NE(errors.find("cannot be written"), std::string::npos) << errors;
    EXPECT_FALSE(fs::exists("/proc/tilescope-export-test.gif.part"));

    // A folder holding other files is never emptied for a PNG sequence.
    fs::create_directories(dir() / "slides");
    std::ofstream(dir() / "slides" / "talk.odp") << "keep me";
    EXPECT_EQ(exportWith("--png-dir '" + (dir() / "slides").string() + "' --to 2", &errors), 2);
    EXPECT_NE(errors.find("other files"), std::string::npos) << errors;
    EXPECT_TRUE(fs::exists(dir() / "slides" / "talk.odp"));

    std::vector<std::string> left;
    for (const auto& entry : fs::directory_iterator(dir()))
        left.push_back(entry.path().filename().string());
    for (const std::string& name : left)
        EXPECT_EQ(name.find(".part"), std::string::npos) << name << " was left behind";
}

TEST_F(ExportTest, MoreThan2000FramesAsksForASmallerRange) {
    const fs::path gif = dir() / "long.gif";
    std::string errors;
    // Every event of a 16 x 16 block: thousands of frames.
    EXPECT_EQ(run("export --window 1280x800 --backend cpu --kernel conv2d_tiled_in --builtin gradient --input-size "
                  "32x32 --radius 2 --block 16 --by event --gif '" +
                      gif.string() + "'",
                  &errors),
              2);
    EXPECT_TRUE(std::regex_search(errors, std::regex("the range has [0-9]+ frames; export at most 2000: use "
                                                     "--from/--to/--every")))
        << errors;
    EXPECT_FALSE(fs::exists(gif));
    EXPECT_FALSE(fs::exists(dir() / "long.gif.part"));
}

TEST_F(ExportTest, ABadRangeIsRefusedWithOneLine) {
    const fs::path gif = dir() / "r.gif";
    struct Case {
        std::string arguments, words;
    };
    for (const Case& c :
         {Case{"--from 9 --to 3", "--from 9 is after --to 3"},
          Case{"--to 999", "999 is outside the trace: the selected block has steps 0 to"},
          Case{"--every 0", "--every 0 must be 1 or more"}, Case{"--view nowhere", "unknown --view 'nowhere'"},
          Case{"--size 8x8", "must be from 16x16 to 8192x8192"}, Case{"--fps 0", "--fps must be from 0.1 to 60"}}) {
        std::string errors;
        EXPECT_EQ(exportWith("--gif '" + gif.string() + "' " + c.arguments, &errors), 2) << c.arguments;
        EXPECT_NE(errors.find(c.words), std::string::npos) << c.arguments << ": " << errors;
        EXPECT_EQ(std::count(errors.begin(), errors.end(), '\n'), 1) << errors;
        EXPECT_FALSE(fs::exists(gif));
    }
}

}  // namespace
}  // namespace tilescope::test
