# Sanitizer and libFuzzer builds (docs/testing.md).
#
#   XSPMD_SANITIZE=ON  every target of the project is compiled and linked with
#                      AddressSanitizer and UndefinedBehaviorSanitizer; any
#                      report aborts the process (-fno-sanitize-recover).
#   XSPMD_FUZZER=ON    builds the libFuzzer targets of test/fuzz/ (xla-ir-fuzzer).
#
# Both need clang (Debian's clang-22: its compiler-rt matches the LLVM 22 the
# project links against). LLVM and MLIR come uninstrumented from Debian: ASan
# still sees every allocation (its allocator replaces malloc and operator new
# process-wide) but not the accesses made inside libMLIR.so / libLLVM.so.
# What a project linking the installed libraries must link with too
# (XspmdConfig.cmake adds it to the imported targets).
set(XSPMD_INSTRUMENTATION_LINK_OPTIONS "")
if(NOT XSPMD_SANITIZE AND NOT XSPMD_FUZZER)
  return()
endif()

if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR
    "XSPMD_SANITIZE and XSPMD_FUZZER need clang; configure with "
    "-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 "
    "(apt-get install clang-22 libclang-rt-22-dev)")
endif()

if(XSPMD_SANITIZE)
  message(STATUS "xspmd: building with AddressSanitizer and UBSan")
  set(XSPMD_SANITIZER_FLAGS
    -fsanitize=address,undefined
    # Every report is fatal, so a test cannot pass over one.
    -fno-sanitize-recover=all
    -fno-omit-frame-pointer
    -gline-tables-only)
  add_compile_options(${XSPMD_SANITIZER_FLAGS})
  add_link_options(-fsanitize=address,undefined)
  list(APPEND XSPMD_INSTRUMENTATION_LINK_OPTIONS -fsanitize=address,undefined)
  # The lit and unit tests run the sanitized binaries with these options
  # (test/lit.cfg.py passes them to lit, test/unit/CMakeLists.txt to ctest).
  # allow_user_poisoning=0: llvm::BumpPtrAllocator poisons its slabs from
  # its inline code, which is instrumented when it is compiled into our
  # objects but not inside libMLIR.so; memory that MLIR's own (uninstrumented)
  # copy hands out from a slab our copy poisoned is reported as
  # use-after-poison although it is valid. Ignoring manual poisoning keeps
  # every check of the compiler-instrumented accesses.
  set(XSPMD_ASAN_OPTIONS
    "allow_user_poisoning=0:detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1")
  set(XSPMD_UBSAN_OPTIONS "print_stacktrace=1:halt_on_error=1")
endif()

if(XSPMD_FUZZER)
  message(STATUS "xspmd: building the libFuzzer targets")
  # Coverage instrumentation for libFuzzer's guidance in every library of the
  # project; only the fuzzer executables link libFuzzer itself.
  add_compile_options(-fsanitize=fuzzer-no-link)
  list(APPEND XSPMD_INSTRUMENTATION_LINK_OPTIONS -fsanitize=fuzzer-no-link)
endif()
