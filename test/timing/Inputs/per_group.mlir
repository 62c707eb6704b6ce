// One all-reduce whose groups use different links: on two v5p 2x2x1 slices,
// [0, 4] and [3, 7] cross the DCN (through their host's NIC and their PCIe
// links), [1, 2] and [5, 6] stay on ICI inside their slice. Each device waits
// only for its own group.
xla.mesh @mesh = <["d"=8]>

func.func @main(%a: tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16> {
  %r = xla.all_reduce sum %a groups = [[0, 4], [1, 2], [3, 7], [5, 6]] : tensor<1024x1024xbf16>
  %t = xla.tanh %r : tensor<1024x1024xbf16>
  return %t : tensor<1024x1024xbf16>
}
