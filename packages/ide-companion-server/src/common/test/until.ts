/** Resolves once `condition` holds; fails naming `what` after `timeoutMs`. */
export async function until(condition: () => boolean, what = 'the condition', timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
        if (Date.now() > deadline) {
            throw new Error(`Timed out waiting for ${what}`);
        }
        await new Promise(resolve => setTimeout(resolve, 10));
    }
}
