// A PyPI project name (PEP 508: letters, digits, ".", "_", "-", starting and ending with a letter or
// digit), then optionally a version constraint as uv accepts it on its command line (`name==1.2.3`,
// `name@1.2.3`, `name>=1.2`). Nothing that could start an option ("-…") or name a path or URL.
const PYPI_SPEC = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,198}[A-Za-z0-9])?(?:(?:==|>=|<=|~=|!=|@)[A-Za-z0-9][A-Za-z0-9.+!_*-]{0,127})?$/;

/** Whether `spec` is a plain PyPI package for `uvx`, optionally with a version. */
export function isPypiPackageSpec(spec: string): boolean {
    return PYPI_SPEC.test(spec);
}
