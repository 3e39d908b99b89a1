/** The message of an error, or the thrown value as text: what logs and tool errors show. */
export function describe(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
}
