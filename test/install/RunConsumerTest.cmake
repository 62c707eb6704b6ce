# ctest driver: install xspmd into a scratch prefix, configure and build the
# consumer project against it, run it and check its output.
#   -DXSPMD_BINARY_DIR=... -DCONSUMER_SOURCE_DIR=... -DWORK_DIR=...
#   -DCONSUMER_CXX_COMPILER=... (the compiler xspmd was built with)
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(
  COMMAND ${CMAKE_COMMAND} --install ${XSPMD_BINARY_DIR} --prefix ${WORK_DIR}/prefix
  RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -G Ninja -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR}/build
          -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
          -DCMAKE_CXX_COMPILER=${CONSUMER_CXX_COMPILER}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc)
  message(FATAL_ERROR "configuring the consumer failed:\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc)
  message(FATAL_ERROR "building the consumer failed:\n${out}")
endif()
execute_process(COMMAND ${WORK_DIR}/build/xspmd-consumer
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc)
  message(FATAL_ERROR "the consumer failed (${rc}): ${out}${err}")
endif()
set(expected "mesh @m devices: 0 1 2 3 4 5 6 7 axis0=mixed axis1=ici")
string(STRIP "${out}" out)
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "unexpected consumer output:\n  ${out}\nexpected:\n  ${expected}")
endif()
message(STATUS "consumer: ${out}")
