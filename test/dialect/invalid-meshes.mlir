// Every verifier rule of xla.mesh and #xla.mesh: axis names and sizes,
// explicit device orders, hybrid meshes, and device counts within a module.

// RUN: xla-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{duplicate mesh axis name "data"}}
xla.mesh @dup = <["data"=2, "model"=2, "data"=2]>

// -----

// expected-error @+1 {{mesh axis "data" has size 0; sizes must be positive}}
xla.mesh @zero = <["data"=0]>

// -----

// expected-error @+1 {{mesh axis "model" has size -2; sizes must be positive}}
xla.mesh @negative = <["data"=2, "model"=-2]>

// -----

// A product that would wrap 64 bits is rejected before it is formed.
// expected-error @+1 {{mesh spans more than 16777216 devices (axis "x" of size 4294967296 brings it past the limit)}}
xla.mesh @wraps = <["x"=4294967296, "y"=4294967296]>

// -----

// expected-error @+1 {{mesh spans more than 16777216 devices (axis "y" of size 65536 brings it past the limit)}}
xla.mesh @huge = <["x"=65536, "y"=65536, "z"=65536]>

// -----

// expected-error @+1 {{mesh axis names must not be empty}}
xla.mesh @empty_name = <[""=2]>

// -----

// expected-error @+1 {{mesh lists 4 devices but its axes span 8}}
xla.mesh @too_few = <["x"=4, "y"=2], devices=[0, 1, 2, 3]>

// -----

// expected-error @+1 {{mesh lists 5 devices but its axes span 4}}
xla.mesh @too_many = <["x"=4], devices=[0, 1, 2, 3, 4]>

// -----

// expected-error @+1 {{device id 4 is out of range; the device list must be a permutation of 0..3}}
xla.mesh @out_of_range = <["x"=2, "y"=2], devices=[0, 1, 2, 4]>

// -----

// expected-error @+1 {{device id -1 is out of range; the device list must be a permutation of 0..3}}
xla.mesh @negative_id = <["x"=4], devices=[0, 1, 2, -1]>

// -----

// expected-error @+1 {{device id 2 appears twice; the device list must be a permutation of 0..3}}
xla.mesh @repeated = <["x"=4], devices=[2, 1, 2, 3]>

// -----

// expected-error @+1 {{hybrid mesh has 2 ICI axes but 1 DCN axes; both must name the same axes}}
xla.mesh @rank_mismatch = hybrid<ici=["data"=1, "fsdp"=4], dcn=["data"=2]>

// -----

// expected-error @+1 {{hybrid mesh axis 1 is "fsdp" in ici but "model" in dcn; both must name the same axes in the same order}}
xla.mesh @name_mismatch = hybrid<ici=["data"=1, "fsdp"=4], dcn=["data"=2, "model"=1]>

// -----

// The same names in another order are a mismatch too.
// expected-error @+1 {{hybrid mesh axis 0 is "data" in ici but "fsdp" in dcn}}
xla.mesh @order_mismatch = hybrid<ici=["data"=1, "fsdp"=4], dcn=["fsdp"=1, "data"=2]>

// -----

// expected-error @+1 {{hybrid mesh axis "fsdp" has ICI size 4 and DCN size 0; sizes must be positive}}
xla.mesh @zero_dcn = hybrid<ici=["data"=1, "fsdp"=4], dcn=["data"=2, "fsdp"=0]>

// -----

// expected-error @+1 {{hybrid mesh axis "data" has ICI size -1 and DCN size 2; sizes must be positive}}
xla.mesh @negative_ici = hybrid<ici=["data"=-1], dcn=["data"=2]>

// -----

// expected-error @+1 {{duplicate mesh axis name "x"}}
xla.mesh @hybrid_dup = hybrid<ici=["x"=2, "x"=2], dcn=["x"=1, "x"=2]>

// -----

// A hybrid mesh orders its devices itself.
// expected-error @+1 {{expected '>'}}
xla.mesh @hybrid_devices = hybrid<ici=["x"=2], dcn=["x"=2], devices=[0, 1, 2, 3]>

// -----

// expected-error @+1 {{expected '='}}
xla.mesh @no_size = <["x", "y"=2]>

// -----

// expected-error @+1 {{expected 'devices'}}
xla.mesh @bad_keyword = <["x"=2], order=[1, 0]>

// -----

// The standalone attribute is verified the same way.
// expected-error @+1 {{duplicate mesh axis name "a"}}
func.func @attr() attributes {m = #xla.mesh<["a"=2, "a"=2]>} {
  return
}

// -----

xla.mesh @eight = <["data"=4, "model"=2]>
// expected-error @+1 {{'xla.mesh' op spans 4 devices but mesh @eight spans 8; all meshes of a module must span the same devices}}
xla.mesh @four = <["data"=4]>

// -----

xla.mesh @eight = <["data"=8]>
xla.mesh @also_eight = hybrid<ici=["data"=4], dcn=["data"=2]>
// expected-error @+1 {{'xla.mesh' op spans 16 devices but mesh @eight spans 8}}
xla.mesh @sixteen = hybrid<ici=["data"=4], dcn=["data"=4]>

// -----

// expected-note @+1 {{see existing symbol definition here}}
xla.mesh @m = <["x"=2]>
// expected-error @+1 {{redefinition of symbol named 'm'}}
xla.mesh @m = <["y"=2]>

// -----

func.func @mesh_in_function() {
  // expected-error @+1 {{'xla.mesh' op expects parent op 'builtin.module'}}
  xla.mesh @inner = <["x"=2]>
  return
}
