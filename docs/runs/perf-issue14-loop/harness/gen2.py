# TUs: each holds one version of the kernel in cuda_plain.cu's constant layout
tus = {
  'old':  ('old/plain_language_old.cuh', 'old/conv2d_fast_old.cuh'),
  'tree': ('exec/plain_language.cuh', 'conv/conv2d_fast.cuh'),
}
runs = {
  'old':  [(1,24,24),(2,16,16),(3,16,16),(4,24,24),(5,24,24),(6,24,24),(7,16,16),(5,16,16),(6,16,16),(7,16,16,'u')],
  'tree': [(1,24,24),(2,16,16),(3,16,16),(4,24,24),(5,16,16),(6,16,16),(7,16,16),(1,24,24,'u'),(4,24,24,'u'),(6,16,16,'u'),(7,16,16,'u')],
}
for tu,(lang,kern) in tus.items():
    out = ['#include "harness.hpp"', 'namespace {', f'#include "{lang}"', '#ifndef TS_KEEP_LOOP', '#define TS_KEEP_LOOP _Pragma("unroll 1")', '#endif', 'namespace tilescope::plain {',
           '__constant__ unsigned g_dropBarrier[8];', '#include "conv/constant_memory.cuh"', f'#include "{kern}"',
           '__global__ void keep(float* o, int i) { o[0] = g_dropBarrier[i] + M[i] + F_c[i][i]; }', '}', '}',
           f'void upload_{tu}(const float* m) {{ CK(cudaMemcpyToSymbol(tilescope::plain::F_c, m, 225 * 4)); }}',
           f'void add_{tu}(std::vector<Var>& v) {{']
    for item in runs[tu]:
        r,bx,by = item[:3]
        al = 'false' if len(item) > 3 else 'true'
        nm = f"r{r} {tu}" + (" unal" if len(item) > 3 else "")
        out.append(f'  v.push_back(grid2d("{nm}", {r}, tilescope::plain::conv2d_fast<{r}, {al}>, {bx}, {by}));')
    out.append('}')
    open(f'tu_{tu}.cu','w').write('\n'.join(out)+'\n')
decl = ''.join(f'void upload_{t}(const float*); void add_{t}(std::vector<Var>&);\n' for t in tus)
adds = ' '.join(f'add_{t}(vars);' for t in tus)
ups = ' '.join(f'upload_{t}(&mask[0][0]);' for t in tus)
s = open('main.cu').read()
s = s[:s.index('void upload_r1')] + decl + s[s.index('__host__ __device__ inline float inputValue'):]
s = s.replace('add_r1(vars); add_r2(vars); add_r4(vars); add_r7(vars);', adds)
s = s.replace('upload_r1(&mask[0][0]); upload_r2(&mask[0][0]); upload_r4(&mask[0][0]); upload_r7(&mask[0][0]);', ups)
open('main2.cu','w').write(s)
open('build2.sh','w').write('''#!/bin/bash
set -e
cd "$(dirname "$0")"
F="-std=c++20 -arch=sm_90 -O3 -I../kernels -I. -Xptxas -warn-spills"
for t in %s; do nvcc $F -c tu_$t.cu -o tu_$t.o & done
nvcc $F -c main2.cu -o main2.o &
wait
nvcc -arch=sm_90 -o bench2 main2.o %s
''' % (' '.join(tus), ' '.join(f'tu_{t}.o' for t in tus)))
