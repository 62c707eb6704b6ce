// Bad input gets a clear message and a non-zero exit, never a crash.
//
// RUN: not xla-run %s --function=nope 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not xla-run %s 2>&1 | FileCheck %s --check-prefix=AMBIGUOUS
// RUN: not xla-run %s --function=add --input=2xf32=1,2 --input=2xf32=1,2 --input=2xf32=3,4 2>&1 | FileCheck %s --check-prefix=TOOMANY
// RUN: not xla-run %s --function=add --input=3xf32=1,2,3 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not xla-run %s --function=add --input=2xf64=1,2 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not xla-run %s --function=add --input=2xf32=1,x 2>&1 | FileCheck %s --check-prefix=NUMBER
// RUN: not xla-run %s --function=add --input=2xq32=1,2 2>&1 | FileCheck %s --check-prefix=ETYPE
// RUN: not xla-run %s --function=add --input=2xf32=1,2,3 2>&1 | FileCheck %s --check-prefix=VALUES
// RUN: not xla-run %s --function=add --input=4xf32=1,2,3 --input=4xf32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=FEWER
// RUN: not xla-run %s --function=add --input=2xf32=1,,2 2>&1 | FileCheck %s --check-prefix=EMPTYVALUE
// RUN: not xla-run %s --function=add --input=2xf32=1,2, 2>&1 | FileCheck %s --check-prefix=TRAILING
// RUN: xla-run %s --function=add --input=2xf32=5 --input=2xf32=1,2 2>&1 | FileCheck %s --check-prefix=SPLAT
// RUN: not xla-run %s --function=add --input=2xf32 2>&1 | FileCheck %s --check-prefix=BARE
// RUN: not xla-run %s --function=small --input=2xi8=1,300 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not xla-run %s --function=sum_all --devices=3 2>&1 | FileCheck %s --check-prefix=DEVICES
// RUN: not xla-run %s --function=calls 2>&1 | FileCheck %s --check-prefix=FOREIGN
// RUN: not xla-run %s --function=dynamic 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not xla-run %s --function=add --device-function=7=add 2>&1 | FileCheck %s --check-prefix=NODEVICE
// RUN: echo 'func.func @f(%%a: tensor<2xf32>) -> tensor<2xf32> { %%0 = xla.add %%a, : tensor<2xf32> }' | not xla-run - 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: echo 'xla.mesh @m = <["x"=2]> func.func @f(%%a: tensor<2xf32>) -> tensor<2xf32> { %%0 = xla.all_reduce sum %%a mesh_axes = @m["z"] : tensor<2xf32> return %%0 : tensor<2xf32> }' | not xla-run - 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: not xla-run %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not xla-run %s --function=add --input=1000000000x1000000000xf32=1 2>&1 | FileCheck %s --check-prefix=HUGEINPUT
// RUN: not xla-run %s --function=huge 2>&1 | FileCheck %s --check-prefix=HUGETYPE


xla.mesh @mesh = <["x"=2, "y"=2]>

// HUGEINPUT: xla-run: error: input 0: '1000000000x1000000000xf32' is larger than this host's memory
// HUGETYPE: errors.mlir:[[@LINE+1]]:1: error: 'func.func' op argument 0 of type 'tensor<100000x100000x100000xf32>' is larger than this host's memory
func.func @huge(%a: tensor<100000x100000x100000xf32>) -> tensor<100000x100000x100000xf32> {
  return %a : tensor<100000x100000x100000xf32>
}

// UNKNOWN: xla-run: error: no function @nope in the module (functions: @huge, @add, @small, @sum_all, @external, @calls, @dynamic)
// AMBIGUOUS: xla-run: error: cannot pick a function: the module has 6 public functions and no @main (functions: @huge, {{.*}}); pass --function=NAME
// TOOMANY: xla-run: error: input 2 ('2xf32=3,4') is one more than the function's arguments
// SHAPE: xla-run: error: input 0 must be 2xf32, got 3xf32 ('3xf32=1,2,3')
// DTYPE: xla-run: error: input 0 must be 2xf32, got 2xf64 ('2xf64=1,2')
// NUMBER: xla-run: error: input 0: 'x' is not a number
// ETYPE: xla-run: error: input 0: '2xq32': unknown element type 'q32' (expected f32, f64, bf16, f16, i1, i8, i32 or i64)
// VALUES: xla-run: error: input 0: 2xf32 holds 2 elements but 3 values were given (give all of them, or one to fill the shape)
// FEWER: xla-run: error: input 0: 4xf32 holds 4 elements but 3 values were given
// EMPTYVALUE: xla-run: error: input 0: 2xf32: empty value at offset 2 of '1,,2'
// TRAILING: xla-run: error: input 0: 2xf32: empty value at offset 4 of '1,2,'
// SPLAT: result[0]: 2xf32=6 7
// BARE: xla-run: error: input 0: '2xf32' is not a number
func.func @add(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = xla.add %a, %b : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// RANGE: xla-run: error: input 0: '300' does not fit in i8
func.func @small(%a: tensor<2xi8>) -> tensor<2xi8> {
  return %a : tensor<2xi8>
}

// DEVICES: xla-run: error: --devices=3 does not match mesh @mesh, which spans 4 devices
func.func @sum_all(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = xla.all_reduce sum %a mesh_axes = @mesh["x"] : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// FOREIGN: errors.mlir:[[@LINE+4]]:8: error: 'func.call' op calls @external, which has no body the simulator can run
// FOREIGN: xla-run: error: cannot run @calls on the simulator (see the diagnostics above)
func.func private @external(tensor<2xf32>) -> tensor<2xf32>
func.func @calls(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @external(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// TYPE: errors.mlir:[[@LINE+1]]:1: error: 'func.func' op argument 0 has type 'tensor<?xf32>'; the simulator runs statically shaped tensors of f32, f64, bf16, f16, i1, i8, i32 or i64
func.func @dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}

// NODEVICE: xla-run: error: device 7 does not exist (the run uses 1 device)
// PARSE: <stdin>:1:68: error: expected SSA operand
// PARSE: xla-run: error: cannot load '-' (see the diagnostics above)
// VERIFY: <stdin>:1:{{[0-9]+}}: error: 'xla.all_reduce' op mesh @m has no axis "z"
// NOFILE: xla-run: error: cannot read '{{.*}}does-not-exist.mlir': No such file or directory
