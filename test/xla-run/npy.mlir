// .npy output and input: xla-run's files read back by xla-run and by an
// independent reader (Inputs/npy_tool.py), files written by that tool read
// by xla-run, several arrays per file (@, +, *), and malformed files.
//
// Round trip through xla-run.
// RUN: xla-run %s --function=make --output=@%t.a.npy --output=+%t.a.npy --output=@%t.b.npy --output=+%t.b.npy
// RUN: xla-run %s --function=take --input=@%t.a.npy --input=+%t.a.npy --input=@%t.b.npy --input=+%t.b.npy | FileCheck %s --check-prefix=BACK
// RUN: %python %S/Inputs/npy_tool.py dump %t.a.npy | FileCheck %s --check-prefix=DUMPA
// RUN: %python %S/Inputs/npy_tool.py dump %t.b.npy | FileCheck %s --check-prefix=DUMPB
//
// Files from the independent writer (v1.0 and v2.0 headers, 4 arrays in
// one file), read with @ then + and with *.
// RUN: %python %S/Inputs/npy_tool.py write %t.in.npy '<f4:2,3:1.5,2,3,4,5,6' '<u2:3:16256,16257,49152' '|b1:2:1,0:v2' '<i8:2:-5,9007199254740993'
// RUN: xla-run %s --function=take --input=@%t.in.npy --input=+%t.in.npy --input=+%t.in.npy --input=+%t.in.npy | FileCheck %s --check-prefix=PYIN
// RUN: xla-run %s --function=take --input=@%t.in.npy --input=*%t.in.npy | FileCheck %s --check-prefix=PYIN
// RUN: %python %S/Inputs/npy_tool.py write %t.scalar.npy '<f8::2.5'
// RUN: xla-run %s --function=scalar --input=@%t.scalar.npy | FileCheck %s --check-prefix=SCALAR
//
// Mismatches and malformed files fail with a message naming the file.
// RUN: not xla-run %s --function=take --input=@%t.b.npy 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not xla-run %s --function=take --input=@%t.a.npy --input=+%t.a.npy --input=+%t.a.npy 2>&1 | FileCheck %s --check-prefix=EXHAUSTED
// RUN: %python %S/Inputs/npy_tool.py raw %t.magic.npy 93504e554d5059010000
// RUN: not xla-run %s --function=scalar --input=@%t.magic.npy 2>&1 | FileCheck %s --check-prefix=MAGIC
// RUN: %python %S/Inputs/npy_tool.py write %t.short.npy '<f8::2.5:garbage'
// RUN: not xla-run %s --function=scalar --input=@%t.short.npy 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: %python %S/Inputs/npy_tool.py write %t.complex.npy '<c8::1,0'
// RUN: not xla-run %s --function=scalar --input=@%t.complex.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: %python %S/Inputs/npy_tool.py write %t.fortran.npy '<f4:2,3:1,2,3,4,5,6:fortran'
// RUN: not xla-run %s --function=take --input=@%t.fortran.npy 2>&1 | FileCheck %s --check-prefix=FORTRAN
// RUN: %python %S/Inputs/npy_tool.py raw %t.dup.npy 934e554d5059010076007b276465736372273a20273c6634272c20276465736372273a20273c6638272c2027666f727472616e5f6f72646572273a2046616c73652c20277368617065273a2028292c207d202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020200a0000000000000440
// RUN: not xla-run %s --function=scalar --input=@%t.dup.npy 2>&1 | FileCheck %s --check-prefix=DUPKEY
// RUN: %python %S/Inputs/npy_tool.py raw %t.extra.npy 934e554d5059010076007b276465736372273a20273c6638272c2027666f727472616e5f6f72646572273a2046616c73652c20277368617065273a2028292c2027616c69676e273a20547275657d202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020202020200a0000000000000440
// RUN: not xla-run %s --function=scalar --input=@%t.extra.npy 2>&1 | FileCheck %s --check-prefix=EXTRAKEY
// RUN: not xla-run %s --function=scalar --input=@%t.missing.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: %python %S/Inputs/npy_tool.py write %t.huge.npy '<f4:1000000000000:1'
// RUN: not xla-run %s --function=scalar --input=@%t.huge.npy 2>&1 | FileCheck %s --check-prefix=HUGE
//
// A failed run writes nothing; an unwritable path is an error.
// RUN: rm -f %t.none.npy
// RUN: not xla-run %s --function=take --input=2x3xf32=x --output=@%t.none.npy 2>&1
// RUN: not test -e %t.none.npy
// RUN: not xla-run %s --function=make --output=@%t.nodir/x.npy 2>&1 | FileCheck %s --check-prefix=NODIR

// BACK: result[0]: 2x3xf32=[1.5 2 3][4 5 6]
// BACK: result[1]: 3xbf16=1 1.01 -2
// BACK: result[2]: 2xi1=1 0
// BACK: result[3]: 2xi64=-5 9007199254740993
// DUMPA: v1 descr=<f4 fortran=False shape=(2, 3) aligned=True values=1.5 2.0 3.0 4.0 5.0 6.0
// DUMPA: v1 descr=<u2 fortran=False shape=(3,) aligned=True values=1.0 1.0078125 -2.0
// DUMPB: v1 descr=|b1 fortran=False shape=(2,) aligned=True values=True False
// DUMPB: v1 descr=<i8 fortran=False shape=(2,) aligned=True values=-5 9007199254740993
func.func @make() -> (tensor<2x3xf32>, tensor<3xbf16>, tensor<2xi1>, tensor<2xi64>) {
  %0 = xla.constant dense<[[1.5, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %1 = xla.constant dense<[1.0, 1.0078125, -2.0]> : tensor<3xbf16>
  %2 = xla.constant dense<[true, false]> : tensor<2xi1>
  %3 = xla.constant dense<[-5, 9007199254740993]> : tensor<2xi64>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<3xbf16>, tensor<2xi1>, tensor<2xi64>
}

// bf16 bits 16256 = 0x3F80 (1.0), 16257 (1.0078125), 49152 = 0xC000 (-2).
// PYIN: result[0]: 2x3xf32=[1.5 2 3][4 5 6]
// PYIN: result[1]: 3xbf16=1 1.01 -2
// PYIN: result[2]: 2xi1=1 0
// PYIN: result[3]: 2xi64=-5 9007199254740993
func.func @take(%a: tensor<2x3xf32>, %b: tensor<3xbf16>, %c: tensor<2xi1>, %d: tensor<2xi64>) -> (tensor<2x3xf32>, tensor<3xbf16>, tensor<2xi1>, tensor<2xi64>) {
  return %a, %b, %c, %d : tensor<2x3xf32>, tensor<3xbf16>, tensor<2xi1>, tensor<2xi64>
}

// SCALAR: result[0]: f64=2.5
func.func @scalar(%a: tensor<f64>) -> tensor<f64> {
  return %a : tensor<f64>
}

// TYPE: xla-run: error: input 0 must be 2x3xf32, got 2xi1 ('@{{.*}}.b.npy')
// EXHAUSTED: xla-run: error: input 2: {{.*}}.a.npy has no array left (it holds 2)
// MAGIC: xla-run: error: {{.*}}.magic.npy: array 0: not a .npy record (bad magic)
// SHORT: xla-run: error: {{.*}}.short.npy: array 0: holds 6 bytes of data but its header says f64 (8 bytes)
// DTYPE: xla-run: error: {{.*}}.complex.npy: unsupported dtype '<c8'
// DUPKEY: xla-run: error: {{.*}}.dup.npy: key 'descr' appears twice in header
// EXTRAKEY: xla-run: error: {{.*}}.extra.npy: unexpected key 'align' in header
// FORTRAN: xla-run: error: {{.*}}.fortran.npy: Fortran-order arrays are not supported
// MISSING: xla-run: error: {{.*}}.missing.npy: cannot read: No such file or directory
// HUGE: xla-run: error: {{.*}}.huge.npy: array 0: 1000000000000xf32 is larger than this host's memory
// NODIR: xla-run: error: {{.*}}.nodir/x.npy: cannot create a temporary file
