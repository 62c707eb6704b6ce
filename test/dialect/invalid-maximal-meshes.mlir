// Verifier rules of maximal meshes (`<[], devices=[k]>`): k names a device
// of the module's other meshes.

// RUN: xla-opt %s -split-input-file -verify-diagnostics

xla.mesh @mesh = <["x"=2, "y"=4]>
// expected-error @+1 {{'xla.mesh' op is a maximal mesh on device 8 but mesh @mesh spans 8 devices (0..7)}}
xla.mesh @maximal_8 = <[], devices=[8]>

// -----

// A maximal mesh declared before the module's mesh is checked against it.
// expected-error @+1 {{'xla.mesh' op is a maximal mesh on device 4 but mesh @mesh spans 4 devices (0..3)}}
xla.mesh @maximal_4 = <["x"=1], devices=[4]>
xla.mesh @mesh = <["x"=4]>

// -----

// expected-error @+1 {{'xla.mesh' op is a maximal mesh on device 3 but no mesh of the module spans the devices}}
xla.mesh @maximal_3 = <[], devices=[3]>

// -----

// expected-error @+1 {{maximal mesh names device -1; device ids must be >= 0}}
xla.mesh @negative = <[], devices=[-1]>

// -----

// One device id per device of the axes: two ids do not make a maximal mesh.
// expected-error @+1 {{mesh lists 2 devices but its axes span 1}}
xla.mesh @two = <[], devices=[1, 2]>

// -----

// A single-device mesh without a device id is device 0 of a 1-device module.
xla.mesh @mesh = <["x"=8]>
// expected-error @+1 {{'xla.mesh' op spans 1 devices but mesh @mesh spans 8; all meshes of a module must span the same devices (a single-device mesh names its device: <[], devices=[k]>)}}
xla.mesh @one = <[]>
