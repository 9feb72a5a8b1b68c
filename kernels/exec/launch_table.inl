// How each kernel is called: which arrays and sizes it takes, in the order of
// its book signature. Written once and included by every execution mode
// inside its own namespace, after the kernels. A mode supplies:
//   globalIn(const float*, int size, ArrayId)  -> Global<const float>
//   globalOut(float*, int size)                -> Global<float>
//   globalInOut(const float*, int size, ArrayId) -> Global<float>, the input
//                                                 made writable (its id kept)
//   restrictIn(const float*, int size)         -> Restrict<float>
// and `launch(kernel, args...)`, which runs the kernel over the plan's grid.
//
// (No include guard and no includes: this file is textually part of a mode.)

struct KernelArgs {
    const float* N = nullptr;  // the input, in the memory the mode runs in
    int nSize = 0;
    const float* mask = nullptr;  // the mask for kernels that take it by pointer
    int maskSize = 0;
    float* P = nullptr;
    int pSize = 0;
};

// conv2d_fast takes its radius as a template parameter: pick the
// instantiation, up to 9x9 the entry that limits its registers. The model's
// shape only (LaunchPlan::fast); the plain mode defines TS_FAST_MENU and
// launches every shape of the tuning menu (launchFastShape).
template <bool ALIGNED, class Launch, class In, class Out>
auto launchFast(Launch& launch, int r, In N, Out P, int width, int height) {
    static_assert(LIMIT_REGISTERS_TO == 4, "the cases below launch conv2d_fast_limited up to radius 4");
    switch (r) {
    case 0: return launch(conv2d_fast_limited<0, ALIGNED>, N, P, width, height);
    case 1: return launch(conv2d_fast_limited<1, ALIGNED>, N, P, width, height);
    case 2: return launch(conv2d_fast_limited<2, ALIGNED>, N, P, width, height);
    case 3: return launch(conv2d_fast_limited<3, ALIGNED>, N, P, width, height);
    case 4: return launch(conv2d_fast_limited<4, ALIGNED>, N, P, width, height);
    case 5: return launch(conv2d_fast<5, ALIGNED>, N, P, width, height);
    case 6: return launch(conv2d_fast<6, ALIGNED>, N, P, width, height);
    default: return launch(conv2d_fast<7, ALIGNED>, N, P, width, height);  // planLaunch refuses r > kMaxRadius
    }
}

#ifdef TS_FAST_MENU
// The tuning menu's shapes at radius r, rows 16-byte aligned: staged or not,
// each path's register limit or the compiler's count (exec/fast_tuning.hpp).
template <int r, class Launch, class In, class Out>
auto launchShape(Launch& launch, const FastShape& s, In N, Out P, int width, int height) {
    if constexpr (r > 0) {  // planLaunch stages no mask of one tap: there is no halo
        if (s.staged) {
            if (s.registers == STAGED_REGISTERS)
                return launch(conv2d_fast_limited<r, true, true, STAGED_REGISTERS>, N, P, width, height);
            return launch(conv2d_fast<r, true, true>, N, P, width, height);
        }
    }
    if (s.registers == DIRECT_REGISTERS)
        return launch(conv2d_fast_limited<r, true, false, DIRECT_REGISTERS>, N, P, width, height);
    return launch(conv2d_fast<r, true, false>, N, P, width, height);
}

template <class Launch, class In, class Out>
auto launchFastShape(Launch& launch, int r, const FastShape& s, In N, Out P, int width, int height) {
    switch (r) {
    case 0: return launchShape<0>(launch, s, N, P, width, height);
    case 1: return launchShape<1>(launch, s, N, P, width, height);
    case 2: return launchShape<2>(launch, s, N, P, width, height);
    case 3: return launchShape<3>(launch, s, N, P, width, height);
    case 4: return launchShape<4>(launch, s, N, P, width, height);
    case 5: return launchShape<5>(launch, s, N, P, width, height);
    case 6: return launchShape<6>(launch, s, N, P, width, height);
    default: return launchShape<7>(launch, s, N, P, width, height);
    }
}
#endif

template <class Launch>
auto launchKernel(const LaunchPlan& plan, const KernelArgs& a, Launch&& launch) {
    auto N = globalIn(a.N, a.nSize, kArrayInput);
    auto P = globalOut(a.P, a.pSize);
    const int r = plan.radius;
    switch (plan.kernel) {
    case KernelId::Conv1dBasic:
        return launch(conv1d_basic, N, globalIn(a.mask, a.maskSize, kArrayMask), P, plan.maskWidth, plan.width);
    case KernelId::Conv1dConst:
        return launch(conv1d_const, N, P, plan.maskWidth, plan.width);
    case KernelId::Conv1dTiled:
        return launch(conv1d_tiled, N, P, plan.maskWidth, plan.width);
    case KernelId::Conv1dTiledCached:
        return launch(conv1d_tiled_cached, N, P, plan.maskWidth, plan.width);
    case KernelId::Conv2dBasic:
        return launch(conv2d_basic, N, globalIn(a.mask, a.maskSize, kArrayMask), P, r, plan.width, plan.height);
    case KernelId::Conv2dConst:
        return launch(conv2d_const, N, P, r, plan.width, plan.height);
    case KernelId::Conv2dTiledIn:
        return launch(conv2d_tiled_in, N, P, r, plan.width, plan.height);
    case KernelId::Conv2dTiledOut:
        return launch(conv2d_tiled_out, N, P, r, plan.width, plan.height);
    case KernelId::Conv2dTiledCached:
        return launch(conv2d_tiled_cached, N, P, r, plan.width, plan.height);
    case KernelId::Conv2dTiledPitched:
        return launch(conv2d_tiled_pitched, P, N, plan.height, plan.width, plan.pitch, plan.channels, plan.maskWidth,
                      restrictIn(a.mask, a.maskSize));
    case KernelId::Conv2dFast:
        static_assert(PATCH == kKernelTable[int(KernelId::Conv2dFast)].patch.outputs,
                      "conv2d_fast's PATCH and its catalogue entry's patch must agree");
        static_assert(STAGE_FROM == kKernelTable[int(KernelId::Conv2dFast)].patch.stageFrom &&
                          STAGE_TO == kKernelTable[int(KernelId::Conv2dFast)].patch.stageTo &&
                          BANDS == kKernelTable[int(KernelId::Conv2dFast)].patch.bands,
                      "conv2d_fast's staged radii and bands and its catalogue entry's must agree");
        static_assert(LIMIT_REGISTERS_TO == kKernelTable[int(KernelId::Conv2dFast)].patch.limitRegistersTo &&
                          STAGED_REGISTERS == kKernelTable[int(KernelId::Conv2dFast)].patch.stagedRegisters &&
                          DIRECT_REGISTERS == kKernelTable[int(KernelId::Conv2dFast)].patch.directRegisters,
                      "conv2d_fast's register limits and its catalogue entry's must agree");
#ifdef TS_FAST_MENU
        if (plan.fast != modelShape(kernelOf(plan), r) && plan.width % 4 == 0)
            return launchFastShape(launch, r, plan.fast, N, P, plan.width, plan.height);
#endif
        // Rows start 16-byte aligned only when the width is a multiple of 4.
        return plan.width % 4 == 0 ? launchFast<true>(launch, r, N, P, plan.width, plan.height)
                                   : launchFast<false>(launch, r, N, P, plan.width, plan.height);

    // The listings as printed (conv/as_printed/), with the signatures they print.
    case KernelId::Conv1dBasicAsPrinted:
        return launch(conv1d_basic_as_printed, N, globalIn(a.mask, a.maskSize, kArrayMask), P, plan.maskWidth,
                      plan.width);
    case KernelId::Conv1dConstAsPrinted:
        return launch(conv1d_const_as_printed, N, P, plan.maskWidth, plan.width);
    case KernelId::Conv1dTiledAsPrinted:
        return launch(conv1d_tiled_as_printed, N, P, plan.maskWidth, plan.width);
    case KernelId::Conv1dTiledCachedAsPrinted:
        return launch(conv1d_tiled_cached_as_printed, N, P, plan.maskWidth, plan.width);
    case KernelId::Conv2dBasicAsPrinted:
        return launch(conv2d_basic_as_printed, N, globalIn(a.mask, a.maskSize, kArrayMask), P, r, plan.width,
                      plan.height);
    case KernelId::Conv2dConstAsPrinted:
        return launch(conv2d_const_as_printed, N, P, r, plan.width, plan.height);
    case KernelId::Conv2dTiledCachedAsPrinted:
        return launch(conv2d_tiled_cached_as_printed, N, P, r, plan.width, plan.height);
    case KernelId::Conv2dTiledPitchedAsPrinted:
        // Figure 7.21 writes its result into its input, so N goes in writable.
        // `a.N` is the launch's own copy of the input (the runner converts the
        // image into a fresh array for every launch, and the GPU executions
        // upload that into a buffer of their own), so the cast writes into
        // nothing the caller keeps.
        return launch(conv2d_tiled_pitched_as_printed, P, globalInOut(a.N, a.nSize, kArrayInput), plan.height,
                      plan.width, plan.pitch, plan.channels, plan.maskWidth, restrictIn(a.mask, a.maskSize));
    case KernelId::Conv2dBasicSlidesAsPrinted:
        return launch(conv2d_basic_slides_as_printed, N, P, globalIn(a.mask, a.maskSize, kArrayMask), plan.width,
                      plan.maskWidth);
    case KernelId::Own:
        break;  // a student's kernel runs from its own compiled file (kernels/own/), never from this table
    }
    return launch(conv1d_basic, N, globalIn(a.mask, a.maskSize, kArrayMask), P, plan.maskWidth, plan.width);
}

// The mask in constant memory, in the layout of M[15] and F_c[15][15].
inline void fillConstantMask(const LaunchPlan& plan, const float* mask, float (&m)[MAX_MASK_WIDTH],
                             float (&f)[MAX_MASK_WIDTH][MAX_MASK_WIDTH]) {
    for (int i = 0; i < MAX_MASK_WIDTH; ++i) {
        m[i] = 0.0f;
        for (int j = 0; j < MAX_MASK_WIDTH; ++j) f[i][j] = 0.0f;
    }
    const int w = plan.maskWidth;
    if (kernelOf(plan).dims == 1) {
        for (int i = 0; i < w; ++i) m[i] = mask[i];
    } else {
        for (int i = 0; i < w; ++i)
            for (int j = 0; j < w; ++j) f[i][j] = mask[i * w + j];
    }
}
