/**
 * Whether `candidate` is `root` or lies below it, comparing absolute, normalised paths as written:
 * `/ws/..notes` is inside `/ws`, `/ws2` is not. Symbolic links are the caller's business (the
 * backend resolves them first where a path decides what may be read or written).
 */
export function isPathWithin(candidate: string, root: string, separator = '/'): boolean {
    return candidate === root || candidate.startsWith(root.endsWith(separator) ? root : root + separator);
}
