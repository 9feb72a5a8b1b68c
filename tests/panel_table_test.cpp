// The table of panels (model/panel_table.hpp): every list of the panels in the
// app reads it, so its rows must agree with themselves and with the names
// that settings files, lesson files and command lines already use.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <set>
#include <string>

#include "model/panel_table.hpp"
#include "model/settings.hpp"

using namespace tilescope;

TEST(PanelTable, EachPanelHasOneKeyAndItsWindowIsNamedByIt) {
    std::set<std::string> keys;
    std::set<int> focusOrders;
    int focusable = 0;
    for (const ui::PanelInfo& p : ui::kPanelTable) {
        EXPECT_TRUE(keys.insert(std::string(p.key)).second) << p.key;
        const std::string title = p.title, tag = "###" + std::string(p.key);
        ASSERT_GE(title.size(), tag.size());
        EXPECT_EQ(title.substr(title.size() - tag.size()), tag) << "imgui.ini knows the window by its key";
        EXPECT_EQ(ui::findPanel(p.key), &p);
        if (p.focusOrder >= 0) {
            ++focusable;
            EXPECT_TRUE(focusOrders.insert(p.focusOrder).second) << p.key;
            EXPECT_NE(p.focusLabel, nullptr);
        }
    }
    // The Focus menu lists the focusable panels at 0, 1, ... with no gap.
    EXPECT_EQ(focusOrders.size(), static_cast<std::size_t>(focusable));
    EXPECT_EQ(*focusOrders.rbegin(), focusable - 1);
    EXPECT_EQ(ui::findPanel("nope"), nullptr);
}

TEST(PanelTable, TheNamesAreTheOnesCommandLinesAndLessonFilesUse) {
    EXPECT_EQ(ui::panelNameList(),
              "setup, result, device, help, grid, threads, shared, output, source, counts, hardware, problems, "
              "editor, charts, class");
    // The help overlay is not a panel that fills the window.
    EXPECT_FALSE(ui::canFocus(*ui::findPanel("help")));
    EXPECT_EQ(ui::focusPanelNameList(),
              "setup, result, device, grid, threads, shared, output, source, counts, hardware, problems, editor, "
              "charts, class");
}

TEST(PanelTable, TheSettingsFileKeepsEveryPanelButTheHelpOverlayUnderItsKey) {
    ui::Settings s;
    s.panels = ui::PanelVisibility::none();
    s.panels[ui::PanelId::Charts] = true;
    const nlohmann::json panels = nlohmann::json::parse(ui::settingsToJson(s))["panels"];
    EXPECT_EQ(panels.size(), ui::kPanelCount - 1);
    EXPECT_FALSE(panels.contains("help"));
    EXPECT_EQ(panels["charts"], true);
    EXPECT_EQ(panels["grid"], false);

    // A file of an older version, with only some panels, keeps the others as they are at first.
    auto back = ui::settingsFromJson(R"({"panels": {"grid": false, "hardware": true}})");
    ASSERT_TRUE(back.ok());
    EXPECT_FALSE(back->panels[ui::PanelId::Grid]);
    EXPECT_TRUE(back->panels[ui::PanelId::Hardware]);
    EXPECT_TRUE(back->panels[ui::PanelId::Setup]);
    EXPECT_FALSE(back->panels[ui::PanelId::Charts]);
}

TEST(PanelTable, AVisibilityFindsAPanelByItsKey) {
    ui::PanelVisibility shown = ui::PanelVisibility::none();
    ASSERT_NE(shown.find("threads"), nullptr);
    *shown.find("threads") = true;
    EXPECT_TRUE(shown[ui::PanelId::Threads]);
    EXPECT_TRUE(shown.stepThrough());
    EXPECT_EQ(shown.find("nope"), nullptr);
    EXPECT_FALSE(ui::PanelVisibility::none().stepThrough());
}
