// Whether this build can start threads. Every desktop build can; the browser
// build (Emscripten without its pthreads, so that the page needs no
// cross-origin isolation and works from any static web host) has one thread,
// the page's: there the CPU executor runs its blocks one after another and
// the app does its background work between frames.
#pragma once

namespace tilescope {

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
inline constexpr bool kThreadsAvailable = false;
#else
inline constexpr bool kThreadsAvailable = true;
#endif

}  // namespace tilescope
