# ACSEL_SANITIZE: "" (off), "address" (ASan + UBSan) or "thread" (TSan).
# Debug sanitizer builds (assertions on) compile at -O1: at -O0 the Eigen fits run about 90 times
# slower than release and the CLI tests outlast Qt Test's 300 s watchdog; -O1 is what the
# sanitizers' own documentation recommends, and keeps stack traces readable. Their debug info is
# line tables only (-g1): a report still names function, file and line, and a test file compiles
# in a quarter less time (test_nnls: 55 -> 42 s of CPU, clang ASan).
set(ACSEL_SANITIZE "" CACHE STRING "Sanitizer set: address or thread")
if(ACSEL_SANITIZE STREQUAL "address")
  add_compile_options($<$<CONFIG:Debug>:-O1> $<$<CONFIG:Debug>:-g1> -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
elseif(ACSEL_SANITIZE STREQUAL "thread")
  add_compile_options($<$<CONFIG:Debug>:-O1> $<$<CONFIG:Debug>:-g1> -fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(NOT ACSEL_SANITIZE STREQUAL "")
  message(FATAL_ERROR "ACSEL_SANITIZE must be empty, 'address' or 'thread'")
endif()
