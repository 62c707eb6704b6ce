// Verifier rules of xla.trace and xla.yield.

// RUN: xla-opt %s -split-input-file -verify-diagnostics

func.func @empty_name(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.trace' op needs a non-empty name}}
  %r = xla.trace "" {
    xla.yield %x : tensor<4xf32>
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @yield_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.trace' op yields 0 value(s) of types}}
  %r = xla.trace "t" {
    xla.yield
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @yield_type(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'xla.trace' op yields 1 value(s) of types 'tensor<4xf32>' but has 1 result(s) of types 'tensor<4xf16>'}}
  %r = xla.trace "t" {
    xla.yield %x : tensor<4xf32>
  } : tensor<4xf16>
  return %r : tensor<4xf16>
}

// -----

func.func @yield_outside(%x: tensor<4xf32>) {
  // expected-error @+1 {{'xla.yield' op ends a region of xla.trace, xla.while, xla.case, xla.manual_computation or an op with scalar bodies, not of 'func.func'}}
  xla.yield %x : tensor<4xf32>
}

// -----

func.func @two_blocks(%x: tensor<4xf32>) {
  // expected-error @+1 {{'xla.trace' op expects region #0 to have 0 or 1 blocks}}
  "xla.trace"() <{name = "t"}> ({
    "xla.yield"() : () -> ()
  ^bb1:
    "xla.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @missing_terminator(%x: tensor<4xf32>) {
  // expected-error @+1 {{'xla.trace' op expects a non-empty block}}
  "xla.trace"() <{name = "t"}> ({
  ^bb0:
  }) : () -> ()
  return
}

// -----

xla.mesh @mesh = <["x"=2]>
func.func @kernel_collective(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.trace' op kernel 'attn' holds 'xla.all_reduce'; a kernel holds no collectives, control flow or other kernels}}
  %r = xla.trace "attn" kernel {
    // expected-note @+1 {{here}}
    %s = xla.all_reduce sum %x mesh_axes = @mesh["x"] : tensor<4xf32>
    xla.yield %s : tensor<4xf32>
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @kernel_in_kernel(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.trace' op kernel 'outer' holds 'xla.trace'; a kernel holds no collectives, control flow or other kernels}}
  %r = xla.trace "outer" kernel {
    // expected-note @+1 {{here}}
    %i = xla.trace "inner" kernel {
      %e = xla.exp %x : tensor<4xf32>
      xla.yield %e : tensor<4xf32>
    } : tensor<4xf32>
    xla.yield %i : tensor<4xf32>
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @kernel_loop(%x: tensor<4xf32>, %i: tensor<i32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.trace' op kernel 'k' holds 'xla.case'}}
  %r = xla.trace "k" kernel {
    // expected-note @+1 {{here}}
    %c = xla.case %i : tensor<i32> -> tensor<4xf32> {
      xla.yield %x : tensor<4xf32>
    }
    xla.yield %c : tensor<4xf32>
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}
