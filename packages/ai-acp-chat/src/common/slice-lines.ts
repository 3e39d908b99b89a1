/** Lines `line` (1-based) to `line + limit - 1`, as ACP's read asks. */
export function sliceLines(text: string, line?: number, limit?: number): string {
    if (line === undefined && limit === undefined) {
        return text;
    }
    const lines = text.split('\n');
    const start = Math.max(0, (line ?? 1) - 1);
    return lines.slice(start, limit !== undefined ? start + limit : undefined).join('\n');
}
