/** Resolves once `condition` holds, checked every 10 ms; fails naming `what` after `timeoutMs`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
        if (Date.now() > deadline) {
            throw new Error(`Timed out waiting for ${what}`);
        }
        await new Promise(resolve => setTimeout(resolve, 10));
    }
}
