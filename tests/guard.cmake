# Included by test scripts that need reference material: when a path in
# NEEDS is missing, the test is skipped (it prints "skipped: ...", which the
# tests' SKIP_REGULAR_EXPRESSION turns into a skip; the script then returns
# on MS_SKIP), or fails when CI is set, since CI must never pass by skipping.
set(MS_SKIP FALSE)
foreach(need IN LISTS NEEDS)
  if(NOT EXISTS "${need}")
    if(DEFINED ENV{CI})
      message(FATAL_ERROR "${need} is absent but CI is set")
    endif()
    message("skipped: ${need} is absent (run tools/setup.sh; ../shared holds the reference data)")
    set(MS_SKIP TRUE)
    break()
  endif()
endforeach()
