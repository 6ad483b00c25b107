# emberlint_add_check(<target> [CONFIG <file>] [ARGS <arg>...])
#
# Lints every C and C++ source of <target> with emberlint while it compiles, through the target's
# <LANG>_CLANG_TIDY property: the build tool (Ninja or Make) runs
#   emberlint check [--config <file>] [<arg>...] <source> -- <the source's compile command>
# beside each compile, in the build's own parallelism. emberlint prints its findings clang style, with
# absolute paths; a finding at a failing severity (warning or error) fails that object's build, as does a
# source that cannot be analyzed. ARGS --exit-zero reports findings without failing, ARGS --select/--ignore
# choose the rules. Without CONFIG, each source uses its nearest .emberlint.json.
#
# The emberlint executable: EMBERLINT_EXECUTABLE if set, else the imported Emberlint::emberlint
# (find_package(Emberlint CONFIG)), else a target `emberlint` of the same build (which the target then
# depends on).
include_guard(GLOBAL)

function(emberlint_add_check target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "CONFIG" "ARGS")
  set(where "emberlint_add_check(${target})")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${where}: unexpected arguments '${arg_UNPARSED_ARGUMENTS}'; expected "
                        "[CONFIG <file>] [ARGS <arg>...]")
  endif()
  if(NOT TARGET "${target}")
    message(FATAL_ERROR "${where}: there is no target named '${target}'")
  endif()
  get_target_property(aliased "${target}" ALIASED_TARGET)
  if(aliased)
    set(target "${aliased}")
  endif()
  get_target_property(type "${target}" TYPE)
  get_target_property(imported "${target}" IMPORTED)
  if(imported OR NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
    message(FATAL_ERROR "${where}: the target compiles no sources of this project (it is ${type}"
                        "${imported})")
  endif()

  if(EMBERLINT_EXECUTABLE)
    set(exe "${EMBERLINT_EXECUTABLE}")
  elseif(TARGET Emberlint::emberlint)
    get_target_property(exe Emberlint::emberlint IMPORTED_LOCATION)
  elseif(TARGET emberlint)
    get_target_property(dir emberlint RUNTIME_OUTPUT_DIRECTORY)
    if(NOT dir)
      get_target_property(dir emberlint BINARY_DIR)
    endif()
    set(exe "${dir}/emberlint${CMAKE_EXECUTABLE_SUFFIX}")
    add_dependencies("${target}" emberlint)
  else()
    message(FATAL_ERROR "${where}: emberlint not found; call find_package(Emberlint CONFIG REQUIRED) first "
                        "or set EMBERLINT_EXECUTABLE")
  endif()

  set(command "${exe}" check)
  if(DEFINED arg_CONFIG)
    get_filename_component(config "${arg_CONFIG}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${config}" OR IS_DIRECTORY "${config}")
      message(FATAL_ERROR "${where}: CONFIG ${arg_CONFIG}: no such file (${config})")
    endif()
    list(APPEND command --config "${config}")
  endif()
  list(APPEND command ${arg_ARGS})

  foreach(lang C CXX)
    get_target_property(existing "${target}" ${lang}_CLANG_TIDY)
    if(existing AND NOT existing STREQUAL command)
      message(FATAL_ERROR "${where}: ${lang}_CLANG_TIDY is already set to '${existing}'; a build runs one "
                          "such tool per language and target")
    endif()
    set_property(TARGET "${target}" PROPERTY ${lang}_CLANG_TIDY "${command}")
  endforeach()
endfunction()
