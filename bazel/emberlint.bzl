"""emberlint in Bazel: one cacheable action per C/C++ source, with the target's own compile command.

    bazel build //... --aspects=@emberlint//:emberlint.bzl%emberlint_aspect --output_groups=emberlint_reports

runs `emberlint check` on every source of every cc_library, cc_binary and cc_test reached (their deps too),
each in an action whose inputs are the source, the headers its target can include, the toolchain's files,
the emberlint executable (@emberlint_tool) and the config files (--@emberlint//:config). Each writes
<target>.emberlint/<source>.json and .sarif, emberlint's reports of that unit (which name it); the output
group emberlint_sarif has the SARIF ones. Findings do not fail the build (--exit-zero); a source that does not
parse does (exit 3), as a compile error would.

    load("@emberlint//:emberlint.bzl", "emberlint_report")
    emberlint_report(name = "emberlint", targets = ["//app", "//lib:all_of_it"], format = "sarif")

merges the reports of the targets and their deps into one (`emberlint merge`): <name>.json or <name>.sarif.
"""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "CPP_COMPILE_ACTION_NAME", "C_COMPILE_ACTION_NAME")
load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")

_RULES = ["cc_library", "cc_binary", "cc_test"]
_SOURCE_EXTENSIONS = ["c", "cc", "cpp", "cxx", "c++", "C"]

def _sources(ctx):
    return [
        f
        for src in getattr(ctx.rule.attr, "srcs", [])
        for f in src.files.to_list()
        if f.is_source and f.extension in _SOURCE_EXTENSIONS
    ]

def _compile_command(ctx, compilation, source, cc_toolchain, feature_configuration):
    """The compiler and arguments Bazel's own compile action of `source` would have (no -o: nothing is built)."""
    is_c = source.extension == "c"
    action = C_COMPILE_ACTION_NAME if is_c else CPP_COMPILE_ACTION_NAME
    flags = list(ctx.fragments.cpp.copts)
    flags += ctx.fragments.cpp.conlyopts if is_c else ctx.fragments.cpp.cxxopts
    flags += [ctx.expand_make_variables("copts", f, {}) for f in getattr(ctx.rule.attr, "copts", [])]
    variables = cc_common.create_compile_variables(
        feature_configuration = feature_configuration,
        cc_toolchain = cc_toolchain,
        user_compile_flags = flags,
        source_file = source.path,
        include_directories = compilation.includes,
        quote_include_directories = compilation.quote_includes,
        system_include_directories = compilation.system_includes,
        framework_include_directories = compilation.framework_includes,
        preprocessor_defines = depset(transitive = [compilation.defines, compilation.local_defines]),
    )
    compiler = cc_common.get_tool_for_action(feature_configuration = feature_configuration, action_name = action)
    arguments = cc_common.get_memory_inefficient_command_line(
        feature_configuration = feature_configuration,
        action_name = action,
        variables = variables,
    )
    return compiler, arguments

_GROUPS = {"json": "emberlint_reports", "sarif": "emberlint_sarif"}

def _deps_reports(ctx, group):
    return [
        getattr(dep[OutputGroupInfo], group)
        for attr in ["deps", "implementation_deps"]
        for dep in getattr(ctx.rule.attr, attr, [])
        if OutputGroupInfo in dep and hasattr(dep[OutputGroupInfo], group)
    ]

def _output_groups(ctx, reports):
    return OutputGroupInfo(**{
        group: depset(reports[format], transitive = _deps_reports(ctx, group))
        for format, group in _GROUPS.items()
    })

def _emberlint_aspect_impl(target, ctx):
    reports = {format: [] for format in _GROUPS}
    if ctx.rule.kind not in _RULES or CcInfo not in target:
        return [_output_groups(ctx, reports)]
    cc_toolchain = find_cpp_toolchain(ctx)
    feature_configuration = cc_common.configure_features(
        ctx = ctx,
        cc_toolchain = cc_toolchain,
        requested_features = ctx.features,
        unsupported_features = ctx.disabled_features,
    )
    compilation = target[CcInfo].compilation_context
    configs = ctx.attr._config.files
    for source in _sources(ctx):
        compiler, arguments = _compile_command(ctx, compilation, source, cc_toolchain, feature_configuration)
        outputs = {
            format: ctx.actions.declare_file("{}.emberlint/{}.{}".format(ctx.label.name, source.short_path, format))
            for format in _GROUPS
        }
        args = ctx.actions.args()
        args.add_all(["check", "--no-cache", "--exit-zero", "--quiet", "-o", outputs["json"], "-o", outputs["sarif"]])
        args.add(source.path)
        args.add("--")
        args.add(compiler)
        args.add_all(arguments)
        ctx.actions.run(
            executable = ctx.executable._emberlint,
            arguments = [args],
            inputs = depset([source], transitive = [compilation.headers, configs, cc_toolchain.all_files]),
            outputs = outputs.values(),
            mnemonic = "Emberlint",
            progress_message = "emberlint %s" % source.short_path,
        )
        for format, report in outputs.items():
            reports[format].append(report)
    return [_output_groups(ctx, reports)]

emberlint_aspect = aspect(
    implementation = _emberlint_aspect_impl,
    attr_aspects = ["deps", "implementation_deps"],
    attrs = {
        "_cc_toolchain": attr.label(default = Label("@bazel_tools//tools/cpp:current_cc_toolchain")),
        "_config": attr.label(default = Label("//:config")),
        "_emberlint": attr.label(
            default = Label("@emberlint_tool//:emberlint"),
            executable = True,
            cfg = "exec",
            allow_single_file = True,
        ),
    },
    fragments = ["cpp"],
    toolchains = ["@bazel_tools//tools/cpp:toolchain_type"],
)

def _emberlint_report_impl(ctx):
    group = _GROUPS[ctx.attr.format]
    reports = depset(transitive = [getattr(t[OutputGroupInfo], group) for t in ctx.attr.targets])
    count = len(reports.to_list())
    if count == 0:
        fail("emberlint_report: the targets and their deps have no C or C++ source to check")
    out = ctx.actions.declare_file("{}.{}".format(ctx.label.name, ctx.attr.format))
    args = ctx.actions.args()
    args.add_all(["merge", "-o", out])
    args.add_all(reports)
    ctx.actions.run(
        executable = ctx.executable._emberlint,
        arguments = [args],
        inputs = reports,
        outputs = [out],
        mnemonic = "EmberlintMerge",
        progress_message = "emberlint merge of %d reports" % count,
    )
    return [DefaultInfo(files = depset([out]))]

emberlint_report = rule(
    implementation = _emberlint_report_impl,
    doc = "One report of the targets' and their deps' sources: `emberlint merge` of the aspect's reports.",
    attrs = {
        "targets": attr.label_list(aspects = [emberlint_aspect], doc = "the targets to check, with their deps"),
        "format": attr.string(default = "json", values = ["json", "sarif"]),
        "_emberlint": attr.label(
            default = Label("@emberlint_tool//:emberlint"),
            executable = True,
            cfg = "exec",
            allow_single_file = True,
        ),
    },
)
