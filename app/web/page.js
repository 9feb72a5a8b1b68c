// Runs before the program starts (emcc --pre-js): the settings folder is kept
// in the browser's IndexedDB, read back before main() and written back a
// moment after each change (the app writes settings.json and imgui.ini there).
Module.preRun = Module.preRun || [];
Module.preRun.push(function () {
  FS.mkdir('/persist');
  FS.mount(IDBFS, {}, '/persist');
  Module.addRunDependency('tilescope-settings');
  FS.syncfs(true, function (error) {
    if (error) console.warn('TileScope: settings not read from the browser storage:', error);
    Module.removeRunDependency('tilescope-settings');
  });
  let syncing = false;
  setInterval(function () {
    if (syncing) return;
    syncing = true;
    FS.syncfs(false, function (error) {
      syncing = false;
      if (error) console.warn('TileScope: settings not saved in the browser storage:', error);
    });
  }, 2000);
});
