/** An agent's JSON-RPC error as one line: its message, and the `data.details` agents put the reason in (Gemini CLI does). */
export function messageOf(error: unknown): string {
    if (error && typeof error === 'object') {
        const { message, data } = error as { message?: unknown; data?: { details?: unknown } };
        const details = typeof data?.details === 'string' ? `: ${data.details}` : '';
        if (typeof message === 'string') {
            return message + details;
        }
    }
    return String(error);
}
