# generates vars_rN.cu: one TU per radius
import sys
spec = {
 1: ["P 24 24", "G 2 24 24"],
 2: ["P 16 16", "G 2 16 16"],
 4: ["P 24 24", "G 1 24 24", "G 2 24 24", "G 2 20 20", "G 2 32 6", "P 20 20"],
 7: ["P 16 16", "G 1 16 16", "G 2 16 16", "P 16 24", "G 1 16 24",
     "R 2 16 16", "R 3 16 16", "R 4 16 16", "R 6 16 16", "R 4 32 8", "R 4 8 16", "R 4 16 8"],
}
for r, items in spec.items():
    out = ['#include "harness.hpp"', '#include "exec/plain_language.cuh"', 'namespace {', '#include "var.cuh"', '#include "roll.cuh"',
           'namespace tp { using namespace tilescope::plain;', '#include "conv/constant_memory.cuh"', '#include "conv/conv2d_fast.cuh"', '}', '}',
           f'void upload_r{r}(const float* m) {{ CK(cudaMemcpyToSymbol(xv::G_c, m, 225 * 4)); CK(cudaMemcpyToSymbol(tp::F_c, m, 225 * 4)); }}',
           f'void add_r{r}(std::vector<Var>& v) {{']
    for it in items:
        t = it.split()
        if t[0] == 'P':
            out.append(f'  v.push_back(grid2d("r{r} project", {r}, tp::conv2d_fast<{r}, true>, {t[1]}, {t[2]}));')
        elif t[0] == 'G':
            out.append(f'  v.push_back(grid2d("r{r} xv addr{t[1]}", {r}, xv::kgrid<{r}, {t[1]}, 0>, {t[2]}, {t[3]}));')
        elif t[0] == 'L':
            a, bx, by, mb = t[1:]
            out.append(f'  v.push_back(grid2d("r{r} xv addr{a} lb{mb}", {r}, xv::kgridlb<{r}, {a}, 0, {int(bx)*int(by)}, {mb}>, {bx}, {by}));')
        elif t[0] == 'R':
            b, bx, by = t[1:]
            out.append(f'  v.push_back(grid2d("r{r} xv roll{b}", {r}, xv::kroll<{r}, {b}>, {bx}, {by}));')
        elif t[0] == 'S':
            a, bx, by, per = t[1:]
            out.append(f'  v.push_back(persist("r{r} xv addr{a}", {r}, xv::kpersist<{r}, {a}, 0>, {bx}, {by}, {per}));')
    out.append('}')
    open(f'vars_r{r}.cu', 'w').write('\n'.join(out) + '\n')
