// Verifier rules of convolution: ranks, attribute lengths, feature groups,
// strides and dilations, and windows larger than the padded input.

// RUN: xla-opt %s -split-input-file -verify-diagnostics

func.func @no_spatial_dims(%x: tensor<8x3xf32>, %k: tensor<3x16xf32>) {
  // expected-error @+2 {{input must be [N, spatial..., C] with at least one spatial dimension}}
  // expected-error @+1 {{'xla.convolution' op failed to infer returned types}}
  %0 = xla.convolution %x, %k, strides = [], padding = [], lhs_dilation = [], rhs_dilation = [] : (tensor<8x3xf32>, tensor<3x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @kernel_rank(%x: tensor<8x32x32x3xf32>, %k: tensor<3x3x16xf32>) {
  // expected-error @+2 {{kernel rank 3 must equal the input rank 4}}
  // expected-error @+1 {{'xla.convolution' op failed to infer returned types}}
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<8x32x32x3xf32>, tensor<3x3x16xf32>) -> tensor<8x30x30x16xf32>
  return
}

// -----

func.func @strides_length(%x: tensor<8x32x32x3xf32>, %k: tensor<3x3x3x16xf32>) {
  // expected-error @+2 {{strides needs 2 entries, got 1}}
  // expected-error @+1 {{'xla.convolution' op failed to infer returned types}}
  %0 = xla.convolution %x, %k, strides = [1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x30x30x16xf32>
  return
}

// -----

func.func @padding_length(%x: tensor<8x32x32x3xf32>, %k: tensor<3x3x3x16xf32>) {
  // expected-error @+2 {{padding needs 4 entries, got 2}}
  // expected-error @+1 {{'xla.convolution' op failed to infer returned types}}
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x30x30x16xf32>
  return
}

// -----

func.func @lhs_dilation_length(%x: tensor<8x32x32x3xf32>, %k: tensor<3x3x3x16xf32>) {
  // expected-error @+2 {{lhs_dilation needs 2 entries, got 3}}
  // expected-error @+1 {{'xla.convolution' op failed to infer returned types}}
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1, 1], rhs_dilation = [1, 1] : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x30x30x16xf32>
  return
}

// -----

func.func @rhs_dilation_length(%x: tensor<8x32x32x3xf32>, %k: tensor<3x3x3x16xf32>) {
  // expected-error @+2 {{rhs_dilation needs 2 entries, got 0}}
  // expected-error @+1 {{'xla.convolution' op failed to infer returned types}}
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [] : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x30x30x16xf32>
  return
}

// -----

func.func @padding_not_pairs(%x: tensor<8x32x32x3xf32>, %k: tensor<3x3x3x16xf32>) {
  // expected-error @+1 {{expected ','}}
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[0], [0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x30x30x16xf32>
  return
}

// -----

func.func @groups_do_not_divide_channels(%x: tensor<2x16x16x6xf32>, %k: tensor<3x3x1x8xf32>) {
  // expected-error @+2 {{feature_groups 4 must divide the input channels (6) and the output features (8)}}
  // expected-error @+1 {{'xla.convolution' op failed to infer returned types}}
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1], feature_groups = 4 : (tensor<2x16x16x6xf32>, tensor<3x3x1x8xf32>) -> tensor<2x14x14x8xf32>
  return
}

// -----

func.func @groups_do_not_divide_features(%x: tensor<2x16x16x8xf32>, %k: tensor<3x3x2x6xf32>) {
  // expected-error @+2 {{feature_groups 4 must divide the input channels (8) and the output features (6)}}
  // expected-error @+1 {{'xla.convolution' op failed to infer returned types}}
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1], feature_groups = 4 : (tensor<2x16x16x8xf32>, tensor<3x3x2x6xf32>) -> tensor<2x14x14x6xf32>
  return
}

// -----

func.func @zero_groups(%x: tensor<2x16x16x8xf32>, %k: tensor<3x3x8x8xf32>) {
  // expected-error @+2 {{feature_groups 0 must divide the input channels (8) and the output features (8)}}
  // expected-error @+1 {{'xla.convolution' op failed to infer returned types}}
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1], feature_groups = 0 : (tensor<2x16x16x8xf32>, tensor<3x3x8x8xf32>) -> tensor<2x14x14x8xf32>
  return
}

// -----

func.func @kernel_features(%x: tensor<2x16x16x8xf32>, %k: tensor<3x3x8x8xf32>) {
  // expected-error @+2 {{kernel input features (8) times feature_groups (2) must equal the input channels (8)}}
  // expected-error @+1 {{'xla.convolution' op failed to infer returned types}}
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1], feature_groups = 2 : (tensor<2x16x16x8xf32>, tensor<3x3x8x8xf32>) -> tensor<2x14x14x8xf32>
  return
}

// -----

func.func @zero_stride(%x: tensor<8x32x32x3xf32>, %k: tensor<3x3x3x16xf32>) {
  // expected-error @+2 {{strides and dilations must be positive}}
  // expected-error @+1 {{'xla.convolution' op failed to infer returned types}}
  %0 = xla.convolution %x, %k, strides = [1, 0], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x30x30x16xf32>
  return
}

// -----

func.func @zero_dilation(%x: tensor<8x32x32x3xf32>, %k: tensor<3x3x3x16xf32>) {
  // expected-error @+2 {{strides and dilations must be positive}}
  // expected-error @+1 {{'xla.convolution' op failed to infer returned types}}
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [0, 1] : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x30x30x16xf32>
  return
}

// -----

func.func @window_too_large(%x: tensor<1x4x4x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // Dilation 2 makes the 3x3 kernel span 5 > 4.
  // expected-error @+2 {{spatial dimension 0 (4 after dilation and padding) is smaller than the dilated kernel (5)}}
  // expected-error @+1 {{'xla.convolution' op failed to infer returned types}}
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [2, 2] : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x0x0x1xf32>
  return
}

// -----

func.func @negative_padding(%x: tensor<1x4x4x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+2 {{spatial dimension 1 (2 after dilation and padding) is smaller than the dilated kernel (3)}}
  // expected-error @+1 {{'xla.convolution' op failed to infer returned types}}
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[0, 0], [-1, -1]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x0x1xf32>
  return
}

// -----

func.func @convolution_result(%x: tensor<8x32x32x3xf32>, %k: tensor<3x3x3x16xf32>) {
  // expected-error @+2 {{'xla.convolution' op inferred type(s) 'tensor<8x30x30x16xf32>' are incompatible with return type(s) of operation 'tensor<8x32x32x16xf32>'}}
  // expected-error @+1 {{'xla.convolution' op failed to infer returned types}}
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x32x32x16xf32>
  return
}

// -----

func.func @convolution_element_types(%x: tensor<8x32x32x3xf32>, %k: tensor<3x3x3x16xbf16>) {
  // expected-error @+1 {{'xla.convolution' op requires the same element type for all operands}}
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xbf16>) -> tensor<8x30x30x16xf32>
  return
}
