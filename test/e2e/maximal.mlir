// Maximal meshes end to end: values on one device of an 8-device module,
// broadcast to sharded consumers and gathered into maximal results; every
// function is propagated, partitioned and run on the simulated devices
// against the single-device program.
//
// RUN: %python %S/run_checks.py xla-run %s | FileCheck %s
// CHECK: checked 4 functions, 0 failed

xla.mesh @mesh = <["x"=4, "y"=2]>
xla.mesh @maximal_3 = <[], devices=[3]>
xla.mesh @maximal_6 = <[], devices=[6]>

// A weight fed to device 3 only, consumed by a matmul sharded on both axes.
func.func @maximal_weight(%x: tensor<16x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>},
                          %w: tensor<8x12xf32> {xla.sharding = #xla.sharding<@maximal_3, [{}, {}]>})
    -> (tensor<16x12xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %y = xla.matmul %x, %w : (tensor<16x8xf32>, tensor<8x12xf32>) -> tensor<16x12xf32>
  return %y : tensor<16x12xf32>
}

// A sharded value reduced into a result on device 6.
func.func @reduce_to_maximal(%x: tensor<16x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<8xf32> {xla.sharding = #xla.sharding<@maximal_6, [{}]>}) {
  %e = xla.exp %x : tensor<16x8xf32>
  %s = xla.reduce sum %e, dims = [0] : (tensor<16x8xf32>) -> tensor<8xf32>
  return %s : tensor<8xf32>
}

// A chain on device 3 (its ops run maximal), then broadcast to a sharded
// consumer.
func.func @maximal_chain(%a: tensor<8x8xf32> {xla.sharding = #xla.sharding<@maximal_3, [{}, {}]>},
                         %b: tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %t = xla.tanh %a : tensor<8x8xf32>
  %m = xla.mul %t, %a : tensor<8x8xf32>
  %r = xla.add %m, %b : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// From one device to another: device 3's value is broadcast and device 6
// keeps it.
func.func @device_to_device(%a: tensor<4x6xf32> {xla.sharding = #xla.sharding<@maximal_3, [{}, {}]>})
    -> (tensor<4x6xf32> {xla.sharding = #xla.sharding<@maximal_6, [{}, {}]>}) {
  %n = xla.neg %a : tensor<4x6xf32>
  return %n : tensor<4x6xf32>
}
