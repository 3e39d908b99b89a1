/** The message of an error, or the thrown value as text: what logs, tool errors and the UI show. */
export function describeError(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
}
