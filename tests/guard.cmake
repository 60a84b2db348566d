# Included by test scripts that need reference material. ms_skip_without(PATH...):
# when a path is missing the test is skipped (it prints "skipped: ...", which the
# tests' SKIP_REGULAR_EXPRESSION turns into a skip) and the calling script returns
# (a macro, so its return() is the caller's), or fails when CI is set, since CI
# must never pass by skipping.
macro(ms_skip_without)
  foreach(_ms_need IN ITEMS ${ARGN})
    if(NOT EXISTS "${_ms_need}")
      if(DEFINED ENV{CI})
        message(FATAL_ERROR "${_ms_need} is absent but CI is set")
      endif()
      message("skipped: ${_ms_need} is absent (run tools/setup.sh; ../shared holds the reference data)")
      return()
    endif()
  endforeach()
endmacro()
