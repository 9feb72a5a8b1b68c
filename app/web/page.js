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
  // `tilescope serve` behind the page (docs/serve.md): its /api/health
  // answers, and kernel files are compiled and run there. The class's token
  // comes in the link's fragment (#token=..., which no server's log sees),
  // is kept in this browser, and is taken out of the address bar.
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  let token = fragment.get('token');
  if (token) {
    try { localStorage.setItem('tilescope-token', token); } catch (e) {}
    history.replaceState(null, '', window.location.pathname + window.location.search);
  } else {
    try { token = localStorage.getItem('tilescope-token'); } catch (e) {}
  }
  Module.tilescopeToken = token || '';
  Module.addRunDependency('tilescope-server');
  (async function () {
    try {
      const health = await fetch('api/health', {cache: 'no-store'});
      const answer = health.ok ? await health.json() : null;
      if (answer && answer.status === 'ok')
        Module.tilescopeServer = window.location.host;
      // ?open=FILE: a kernel file beside the page (a teacher's link to an exercise).
      const open = new URLSearchParams(window.location.search).get('open');
      if (Module.tilescopeServer && open && /^[A-Za-z0-9_][A-Za-z0-9_.-]*\.cu$/.test(open)) {
        const file = await fetch(open, {cache: 'no-store'});
        if (file.ok) {
          try { FS.mkdir('/incoming'); } catch (e) {}
          FS.writeFile('/incoming/' + open, new Uint8Array(await file.arrayBuffer()));
        }
      }
    } catch (e) {
      // A static host, or no network: the page runs the built-in kernels.
    }
    Module.removeRunDependency('tilescope-server');
  })();
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

// The system clipboard for the app's paste (app/web/main.cpp): Ctrl+V's paste
// event carries the text, kept here for the app's next frame.
document.addEventListener('paste', function (event) {
  const text = event.clipboardData ? event.clipboardData.getData('text/plain') : null;
  if (text !== null) Module.tilescopeClipboard = text;
});
