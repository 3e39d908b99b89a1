/** `JSON.parse` that answers `undefined` instead of throwing, for files anyone may have written. */
export function safeJson(content: string): unknown {
    try {
        return JSON.parse(content);
    } catch {
        return undefined;
    }
}
