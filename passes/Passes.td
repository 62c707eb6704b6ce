//===- Passes.td - passes of xspmd -------------------------*- tablegen -*-===//

#ifndef XSPMD_PASSES_PASSES_TD
#define XSPMD_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Inspection
//===----------------------------------------------------------------------===//

def XlaDumpMeshesPass : Pass<"xla-dump-meshes", "::mlir::ModuleOp"> {
  let summary = "Prints every mesh's axes, link classes and device array";
  let description = [{
    For each `xla.mesh` of the module, prints to standard output its axes
    (size, and for hybrid meshes the ICI and DCN factors), the link class of
    each axis (ICI, DCN or mixed) and the device ids in row-major order of
    the logical mesh. The module is left unchanged.

    ```
    mesh @hybrid: 8 devices, shape [2, 4, 1], hybrid
      axis "data" size 2 (ici 1 x dcn 2) link dcn
      axis "fsdp" size 4 (ici 4 x dcn 1) link ici
      axis "tensor" size 1 (ici 1 x dcn 1) link ici
      devices (row-major): 0 1 2 3 4 5 6 7
      logical array: [[[0], [1], [2], [3]], [[4], [5], [6], [7]]]
    ```

    Use `-o /dev/null` to see the dump alone.
  }];
}

#endif // XSPMD_PASSES_PASSES_TD
