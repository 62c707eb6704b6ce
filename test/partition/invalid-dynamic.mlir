// RUN: xla-opt %s --xla-propagate-sharding --xla-partition -split-input-file -verify-diagnostics

// Dynamically shaped values reach the partitioner only as function
// arguments (xla ops take static shapes), returned as they are. A device's
// block of a split dimension is its size over the shards, unknown for a
// dynamic one, and collectives need static shapes: both are located
// errors (they were an 'xla.slice' or 'xla.pad' verifier error on
// partitioner-built ops, or a block of -2305843009213693951 rows).

xla.mesh @line = <["x"=4]>
// expected-error @+1 {{argument 0 of @split_dynamic_dim ('tensor<?x8xf32>') is split along dynamic dimension 0 by #xla.sharding<@line, [{"x"}, {}]>; the partitioner splits only static dimensions (a device's block size must be known)}}
func.func @split_dynamic_dim(%a: tensor<?x8xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}) -> (tensor<?x8xf32> {xla.sharding = #xla.sharding<@line, [{}, {}]>}) {
  return %a : tensor<?x8xf32>
}

// -----

// Propagation carries the result's split onto the argument.
xla.mesh @line = <["x"=4]>
// expected-error @+1 {{argument 0 of @split_from_result ('tensor<?x8xf32>') is split along dynamic dimension 0}}
func.func @split_from_result(%a: tensor<?x8xf32>) -> (tensor<?x8xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}) {
  return %a : tensor<?x8xf32>
}

// -----

xla.mesh @line = <["x"=4]>
func.func @reshard_dynamic(%a: tensor<?x8xf32> {xla.sharding = #xla.sharding<@line, [{}, {}]>}) -> (tensor<?x8xf32> {xla.sharding = #xla.sharding<@line, [{}, {"x"}]>}) {
  // expected-error @+1 {{'func.return' op returns dynamically shaped 'tensor<?x8xf32>' as result 0 with sharding #xla.sharding<@line, [{}, {"x"}]>, which differs from the value's own; the partitioner cannot reshard a dynamically shaped value (its collectives need static shapes): give the result the value's sharding}}
  return %a : tensor<?x8xf32>
}

// -----

xla.mesh @line = <["x"=4]>
func.func @gather_dynamic(%a: tensor<?x8xf32> {xla.sharding = #xla.sharding<@line, [{}, {"x"}]>}) -> (tensor<?x8xf32> {xla.sharding = #xla.sharding<@line, [{}, {}]>}) {
  // expected-error @+1 {{returns dynamically shaped 'tensor<?x8xf32>' as result 0 with sharding #xla.sharding<@line, [{}, {}]>}}
  return %a : tensor<?x8xf32>
}
