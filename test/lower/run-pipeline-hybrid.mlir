// xla-run partitions, optimizes and lowers each annotated program of
// Inputs/spmd-programs.mlir (--xla-spmd-pipeline) and runs the per-device
// bodies against the program as written.
// Four slices of two devices; "model" spans ICI and DCN. Halo exchanges and
// the block moves of a reshard cross slices for some devices only: those
// programs get a second body.

// RUN: cat %s %S/Inputs/spmd-programs.mlir > %t.mlir
// RUN: xla-run %t.mlir --function=megatron --check | FileCheck %s --check-prefix=MEGATRON
// RUN: xla-run %t.mlir --function=padded --check | FileCheck %s --check-prefix=PADDED
// RUN: xla-run %t.mlir --function=halo --check | FileCheck %s --check-prefix=HALO
// RUN: xla-run %t.mlir --function=reshard --check | FileCheck %s --check-prefix=RESHARD

// MEGATRON: PARTITIONED @megatron into @megatron.spmd: 1 reduce_scatter, 1 all_reduce, 1 all_gather
// MEGATRON-NEXT: LOWERED @megatron.spmd: 1 body for 8 devices
// MEGATRON: EXEC @megatron.spmd on 8 devices
// MEGATRON: [check] result[0]: 8x16xf32 {{.*}}: ok
// MEGATRON: [SUCCESS]

// PADDED: LOWERED @padded.spmd: 1 body for 8 devices
// PADDED: [check] result[0]: 10x6xf32 {{.*}}: ok
// PADDED: [check] result[1]: 6xf32 {{.*}}: ok
// PADDED: [SUCCESS]

// HALO: PARTITIONED @halo into @halo.spmd: 3 collective_permute
// HALO-NEXT: LOWERED @halo.spmd: 2 bodies for 8 devices
// HALO: [check] result[0]: 14x64xf32 {{.*}}: ok
// HALO: [check] result[1]: 19x64xf32 {{.*}}: ok
// HALO: [SUCCESS]

// RESHARD: LOWERED @reshard.spmd: 2 bodies for 8 devices
// RESHARD: [check] result[0]: 8x8xf32 {{.*}}: ok
// RESHARD: [check] result[1]: 8xf32 {{.*}}: ok
// RESHARD: [SUCCESS]

xla.mesh @mesh = hybrid<ici=["data"=1, "model"=2], dcn=["data"=2, "model"=2]>
