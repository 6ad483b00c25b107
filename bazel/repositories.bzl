"""emberlint_tool: the emberlint executable the aspect runs, as a repository of the workspace.

In the WORKSPACE, after local_repository(name = "emberlint", ...):

    load("@emberlint//:repositories.bzl", "emberlint_tool")
    emberlint_tool(name = "emberlint_tool")                      # emberlint on PATH (the Debian package's)
    emberlint_tool(name = "emberlint_tool", path = "/opt/x/bin/emberlint")   # or this one

The repository holds a link to the executable, so its content is an input of every check: another emberlint
(a new package version) reruns them, the same one hits the cache.
"""

def _emberlint_tool_impl(rctx):
    path = rctx.attr.path or rctx.os.environ.get("EMBERLINT", "")
    if not path:
        found = rctx.which("emberlint")
        if found == None:
            fail("emberlint_tool: no emberlint on PATH; install the emberlint package, or give " +
                 "emberlint_tool(path = ...) or the EMBERLINT environment variable")
        path = str(found)
    result = rctx.execute([path, "--version"])
    if result.return_code != 0:
        fail("emberlint_tool: '{} --version' failed ({}): {}".format(path, result.return_code, result.stderr))
    rctx.symlink(path, "emberlint")
    rctx.file("BUILD.bazel", """# emberlint {version} from {path}
exports_files(["emberlint"], visibility = ["//visibility:public"])
""".format(version = result.stdout.strip(), path = path))

emberlint_tool = repository_rule(
    implementation = _emberlint_tool_impl,
    attrs = {"path": attr.string(doc = "the emberlint executable (default: $EMBERLINT, else emberlint on PATH)")},
    environ = ["EMBERLINT", "PATH"],
    local = True,
)
