// Verifier rules of the collectives: participants (mesh axes, replica
// groups, neither), reduction kinds and scale, and the shapes each
// collective's group size implies.

// RUN: xla-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Participants
//===----------------------------------------------------------------------===//

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @unknown_mesh(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.all_reduce' op names unknown mesh @other}}
  %0 = xla.all_reduce sum %x mesh_axes = @other["data"] : tensor<8xf32>
  return
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @unknown_axis(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.all_gather' op mesh @mesh has no axis "fsdp"}}
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @mesh["fsdp"] : (tensor<8xf32>) -> tensor<32xf32>
  return
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @axis_twice(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.all_reduce' op mesh axis "data" is listed twice}}
  %0 = xla.all_reduce sum %x mesh_axes = @mesh["data", "data"] : tensor<8xf32>
  return
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @mesh_without_axes(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.all_reduce' op mesh and axes go together}}
  %0 = "xla.all_reduce"(%x) <{kind = 0 : i32, mesh = @mesh}> : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @axes_without_mesh(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.all_reduce' op mesh and axes go together}}
  %0 = "xla.all_reduce"(%x) <{kind = 0 : i32, axes = ["data"]}> : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @axes_and_groups(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.all_reduce' op names its participants both by mesh axes and by groups}}
  %0 = "xla.all_reduce"(%x) <{kind = 0 : i32, mesh = @mesh, axes = ["data"], groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>}> : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @axes_and_groups_in_custom_form(%x: tensor<8xf32>) {
  // expected-error @+1 {{expected ':'}}
  %0 = xla.all_reduce sum %x mesh_axes = @mesh["data"] groups = [[0, 1]] : tensor<8xf32>
  return
}

// -----

func.func @unequal_groups(%x: tensor<8xf32>) {
  // expected-error @+1 {{all groups must have the same size (got 1 and 2)}}
  %0 = xla.all_reduce sum %x groups = [[0, 1], [2]] : tensor<8xf32>
  return
}

// -----

func.func @no_groups(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.all_reduce' op replica groups must be a non-empty list of non-empty groups of equal size}}
  %0 = xla.all_reduce sum %x groups = [] : tensor<8xf32>
  return
}

// -----

func.func @empty_group(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.all_reduce' op replica groups must be a non-empty list of non-empty groups of equal size}}
  %0 = xla.all_reduce sum %x groups = [[], []] : tensor<8xf32>
  return
}

// -----

func.func @groups_not_2d(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.all_reduce' op replica groups must be a non-empty list of non-empty groups of equal size}}
  %0 = "xla.all_reduce"(%x) <{kind = 0 : i32, groups = dense<[0, 1]> : tensor<2xi64>}> : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @groups_out_of_range(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.all_reduce' op replica groups must partition the devices 0..3; device 4 is out of range}}
  %0 = xla.all_reduce sum %x groups = [[0, 1], [2, 4]] : tensor<8xf32>
  return
}

// -----

func.func @groups_negative(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.all_reduce' op replica groups must partition the devices 0..3; device -1 is out of range}}
  %0 = xla.all_reduce sum %x groups = [[0, 1], [2, -1]] : tensor<8xf32>
  return
}

// -----

func.func @groups_overlap(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.all_reduce' op replica groups must partition the devices; device 1 appears twice}}
  %0 = xla.all_reduce sum %x groups = [[0, 1], [1, 2]] : tensor<8xf32>
  return
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @groups_cover_too_few(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.all_reduce' op replica groups cover 4 devices but the module's meshes span 8}}
  %0 = xla.all_reduce sum %x groups = [[0, 1], [2, 3]] : tensor<8xf32>
  return
}

// -----

xla.mesh @mesh = <["data"=2]>
func.func @groups_cover_too_many(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.collective_permute' op replica groups cover 4 devices but the module's meshes span 2}}
  %0 = xla.collective_permute %x, pairs = [[0, 1]] groups = [[0, 1], [2, 3]] : tensor<8xf32>
  return
}

// -----

func.func @unknown_link(%x: tensor<8xf32>) {
  // expected-error @+1 {{unknown link class 'pcie' (expected ici, dcn, mixed)}}
  %0 = xla.all_reduce sum %x link = pcie : tensor<8xf32>
  return
}

// -----

func.func @mesh_axes_not_a_symbol(%x: tensor<8xf32>) {
  // expected-error @+1 {{invalid kind of attribute specified}}
  %0 = xla.all_reduce sum %x mesh_axes = "mesh"["data"] : tensor<8xf32>
  return
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// -----

func.func @and_on_floats(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.all_reduce' op and needs integer elements, got 'f32'}}
  %0 = xla.all_reduce and %x : tensor<8xf32>
  return
}

// -----

func.func @or_on_floats(%x: tensor<8x4xf32>) {
  // expected-error @+1 {{'xla.reduce_scatter' op or needs integer elements, got 'f32'}}
  %0 = xla.reduce_scatter or %x, dim = 0 groups = [[0, 1]] : (tensor<8x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @sum_on_predicates(%x: tensor<8xi1>) {
  // expected-error @+1 {{'xla.all_reduce' op sum is not defined on i1; use and, or, min, max}}
  %0 = xla.all_reduce sum %x : tensor<8xi1>
  return
}

// -----

func.func @mul_on_predicates(%x: tensor<8xi1>) {
  // expected-error @+1 {{'xla.reduce_scatter' op mul is not defined on i1; use and, or, min, max}}
  %0 = xla.reduce_scatter mul %x, dim = 0 groups = [[0, 1]] : (tensor<8xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @scale_on_integers(%x: tensor<8xi32>) {
  // expected-error @+1 {{'xla.all_reduce' op scale needs float elements}}
  %0 = xla.all_reduce sum %x scale = 5.000000e-01 : tensor<8xi32>
  return
}

// -----

func.func @scatter_scale_on_integers(%x: tensor<8xi32>) {
  // expected-error @+1 {{'xla.reduce_scatter' op scale needs float elements}}
  %0 = xla.reduce_scatter sum %x, dim = 0 groups = [[0, 1]] scale = 2.0 : (tensor<8xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @all_reduce_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.all_reduce' op failed to verify that all of {input, result} have same type}}
  %0 = "xla.all_reduce"(%x) <{kind = 0 : i32}> : (tensor<8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @all_reduce_kind(%x: tensor<8xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [sum, mul, and, or, min, max]}}
  %0 = xla.all_reduce mean %x : tensor<8xf32>
  return
}

//===----------------------------------------------------------------------===//
// all_gather
//===----------------------------------------------------------------------===//

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @gather_shape_mesh_axes(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'xla.all_gather' op gathers 4 blocks of 'tensor<2x16xf32>' along dim 0 into 'tensor<8x16xf32>', not 'tensor<4x16xf32>'}}
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @mesh["data"] : (tensor<2x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @gather_shape_groups(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'xla.all_gather' op gathers 2 blocks of 'tensor<2x16xf32>' along dim 1 into 'tensor<2x32xf32>', not 'tensor<4x16xf32>'}}
  %0 = xla.all_gather %x, dim = 1 groups = [[0, 1], [2, 3]] : (tensor<2x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

// Without participants, the group is every device of the module's meshes.
xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @gather_shape_all_devices(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'xla.all_gather' op gathers 8 blocks of 'tensor<2x16xf32>' along dim 0 into 'tensor<16x16xf32>', not 'tensor<8x16xf32>'}}
  %0 = xla.all_gather %x, dim = 0 : (tensor<2x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @gather_dim_out_of_range(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'xla.all_gather' op dim 2 is out of range for rank 2}}
  %0 = xla.all_gather %x, dim = 2 groups = [[0, 1]] : (tensor<2x16xf32>) -> tensor<2x16xf32>
  return
}

// -----

func.func @gather_rank(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'xla.all_gather' op result must have the operand's rank 2}}
  %0 = xla.all_gather %x, dim = 2 groups = [[0, 1]] : (tensor<2x16xf32>) -> tensor<2x16x2xf32>
  return
}

// -----

func.func @gather_element_type(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'xla.all_gather' op requires the same element type for all operands and results}}
  %0 = xla.all_gather %x, dim = 0 groups = [[0, 1]] : (tensor<2x16xf32>) -> tensor<4x16xbf16>
  return
}

//===----------------------------------------------------------------------===//
// reduce_scatter and all_slice
//===----------------------------------------------------------------------===//

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @scatter_not_divisible(%x: tensor<6x16xf32>) {
  // expected-error @+1 {{'xla.reduce_scatter' op dim 0 of size 6 does not split into 4 equal blocks}}
  %0 = xla.reduce_scatter sum %x, dim = 0 mesh_axes = @mesh["data"] : (tensor<6x16xf32>) -> tensor<1x16xf32>
  return
}

// -----

func.func @scatter_shape(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'xla.reduce_scatter' op keeps one of 2 blocks of 'tensor<8x16xf32>' along dim 1, which is 'tensor<8x8xf32>', not 'tensor<4x16xf32>'}}
  %0 = xla.reduce_scatter sum %x, dim = 1 groups = [[0, 1]] : (tensor<8x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @scatter_dim(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'xla.reduce_scatter' op dim 3 is out of range for rank 2}}
  %0 = xla.reduce_scatter sum %x, dim = 3 groups = [[0, 1]] : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @scatter_rank(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'xla.reduce_scatter' op result must have the operand's rank 2}}
  %0 = xla.reduce_scatter sum %x, dim = 0 groups = [[0, 1]] : (tensor<8x16xf32>) -> tensor<4xf32>
  return
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @slice_not_divisible(%x: tensor<8x15xf32>) {
  // expected-error @+1 {{'xla.all_slice' op dim 1 of size 15 does not split into 2 equal blocks}}
  %0 = xla.all_slice %x, dim = 1 mesh_axes = @mesh["model"] : (tensor<8x15xf32>) -> tensor<8x7xf32>
  return
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @slice_shape(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'xla.all_slice' op keeps one of 8 blocks of 'tensor<8x16xf32>' along dim 0, which is 'tensor<1x16xf32>', not 'tensor<2x16xf32>'}}
  %0 = xla.all_slice %x, dim = 0 mesh_axes = @mesh["data", "model"] : (tensor<8x16xf32>) -> tensor<2x16xf32>
  return
}

// -----

func.func @slice_dim(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'xla.all_slice' op dim 2 is out of range for rank 2}}
  %0 = xla.all_slice %x, dim = 2 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

//===----------------------------------------------------------------------===//
// all_to_all
//===----------------------------------------------------------------------===//

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @split_count_vs_group(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'xla.all_to_all' op split_count 2 must equal the group size 4}}
  %0 = xla.all_to_all %x, split_dim = 0, concat_dim = 1, split_count = 2 mesh_axes = @mesh["data"] : (tensor<8x16xf32>) -> tensor<4x32xf32>
  return
}

// -----

func.func @split_count_vs_groups(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'xla.all_to_all' op split_count 4 must equal the group size 2}}
  %0 = xla.all_to_all %x, split_dim = 0, concat_dim = 1, split_count = 4 groups = [[0, 1], [2, 3]] : (tensor<8x16xf32>) -> tensor<2x64xf32>
  return
}

// -----

func.func @split_not_divisible(%x: tensor<6x16xf32>) {
  // expected-error @+1 {{'xla.all_to_all' op split dim 0 of size 6 does not split into 4 equal blocks}}
  %0 = xla.all_to_all %x, split_dim = 0, concat_dim = 1, split_count = 4 groups = [[0, 1, 2, 3]] : (tensor<6x16xf32>) -> tensor<1x64xf32>
  return
}

// -----

func.func @all_to_all_shape(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'xla.all_to_all' op result must be 'tensor<4x32xf32>', not 'tensor<8x16xf32>'}}
  %0 = xla.all_to_all %x, split_dim = 0, concat_dim = 1, split_count = 2 groups = [[0, 1]] : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @split_dim_out_of_range(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'xla.all_to_all' op split_dim 2 is out of range for rank 2}}
  %0 = xla.all_to_all %x, split_dim = 2, concat_dim = 1, split_count = 2 groups = [[0, 1]] : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @concat_dim_out_of_range(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'xla.all_to_all' op concat_dim 5 is out of range for rank 2}}
  %0 = xla.all_to_all %x, split_dim = 0, concat_dim = 5, split_count = 2 groups = [[0, 1]] : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @all_to_all_rank(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'xla.all_to_all' op result must have the operand's rank 2}}
  %0 = xla.all_to_all %x, split_dim = 0, concat_dim = 1, split_count = 2 groups = [[0, 1]] : (tensor<8x16xf32>) -> tensor<4x16x2xf32>
  return
}

// -----

func.func @zero_split_count(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'xla.all_to_all' op attribute 'split_count' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %0 = xla.all_to_all %x, split_dim = 0, concat_dim = 1, split_count = 0 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

//===----------------------------------------------------------------------===//
// collective_permute
//===----------------------------------------------------------------------===//

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @pair_out_of_group(%x: tensor<8xf32>) {
  // With mesh axes, pairs are positions within a group of 2.
  // expected-error @+1 {{'xla.collective_permute' op pair [1, 2] is out of range 0..1}}
  %0 = xla.collective_permute %x, pairs = [[0, 1], [1, 2]] mesh_axes = @mesh["model"] : tensor<8xf32>
  return
}

// -----

func.func @pair_out_of_groups(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.collective_permute' op pair [-1, 0] is out of range 0..3}}
  %0 = xla.collective_permute %x, pairs = [[-1, 0]] groups = [[0, 1, 2, 3]] : tensor<8xf32>
  return
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @pair_out_of_devices(%x: tensor<8xf32>) {
  // Without participants, pairs are device ids.
  // expected-error @+1 {{'xla.collective_permute' op pair [7, 8] is out of range 0..7}}
  %0 = xla.collective_permute %x, pairs = [[7, 8]] : tensor<8xf32>
  return
}

// -----

func.func @source_twice(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.collective_permute' op 0 is the source of two pairs}}
  %0 = xla.collective_permute %x, pairs = [[0, 1], [0, 2]] groups = [[0, 1, 2, 3]] : tensor<8xf32>
  return
}

// -----

func.func @target_twice(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.collective_permute' op 3 is the target of two pairs}}
  %0 = xla.collective_permute %x, pairs = [[0, 3], [1, 3]] groups = [[0, 1, 2, 3]] : tensor<8xf32>
  return
}

// -----

func.func @pairs_not_pairs(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.collective_permute' op pairs must be a list of [source, target]}}
  %0 = "xla.collective_permute"(%x) <{pairs = dense<[[0, 1, 2], [2, 3, 0]]> : tensor<2x3xi64>}> : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @pair_of_three(%x: tensor<8xf32>) {
  // expected-error @+1 {{expected ']'}}
  %0 = xla.collective_permute %x, pairs = [[0, 1, 2]] : tensor<8xf32>
  return
}

// -----

func.func @uneven_pairs(%x: tensor<8xf32>) {
  // expected-error @+1 {{expected ','}}
  %0 = xla.collective_permute %x, pairs = [[0, 1], [2]] : tensor<8xf32>
  return
}

// -----

func.func @permute_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{'xla.collective_permute' op failed to verify that all of {input, result} have same type}}
  %0 = "xla.collective_permute"(%x) <{pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<8xf32>) -> tensor<8xf16>
  return
}
