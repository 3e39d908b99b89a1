/** A plain object (not null, not an array): what settings and `_meta` hold records as. */
export function isRecord(value: unknown): value is Record<string, unknown> {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value under `key` when `value` is a record that has it as its own key; undefined otherwise (never an inherited one). */
export function ownField(value: unknown, key: string): unknown {
    return isRecord(value) && Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined;
}
